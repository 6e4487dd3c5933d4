// Events: written in the transaction of the change they report — by the operations' and the
// ledger's triggers, and by the core where it makes the change — and read back with GET /v2/events
// (filters, pages, scopes, another account's 404). A refused or sandboxed change writes none; the
// worker's maintenance removes events past EVENT_RETENTION_DAYS.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeServer, createServer, serverBody, type Json } from '../helpers/servers.ts';
import { passer, plusDays, setDomainExpiry, setHostingDates, setServerDates, settled } from '../helpers/billing.ts';
import { activeDomain, freshName, seedElsewhere } from '../helpers/domains.ts';
import { activeHosting, orderHosting, withPanelFault } from '../helpers/hosting.ts';
import { BIG_POOL, activeVm, setPool } from '../helpers/vdc.ts';
import { EVENT_TYPES, LEDGER_EVENTS } from '../../src/core/events/catalogue.ts';
import { COMPLETION_EVENTS } from '../../src/core/families.ts';
import { pruneEvents } from '../../src/core/events/retention.ts';
import { type OperationType, runnerEntries } from '../../src/core/operations/catalogue.ts';

let t: TestApp;

before(async () => {
  t = await startApp({ worker: 'embedded' });
});

async function events(c: Customer, query: Record<string, string> = {}): Promise<Json[]> {
  const res = await call(t.app, 'GET', '/v2/events', { key: c.key, query: { per_page: '100', ...query } });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

const typesOf = (list: Json[]) => list.map((e) => e.type);

/** The account's events of `type` about `resourceId`, once there are `n` (the worker may still be committing). */
async function eventually(c: Customer, type: string, resourceId: string, n = 1): Promise<Json[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await events(c, { type, resource_id: resourceId });
    if (found.length >= n) return found;
    if (Date.now() > deadline) throw new Error(`no ${type} about ${resourceId}: ${JSON.stringify(typesOf(await events(c)))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('what writes events', () => {
  test('a server create: billing.charge_succeeded with the create, then operation.completed and server.created as it is provisioned', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    const s = await activeServer(t, c);
    const list = await events(c);
    // Newest first: the provisioning's two, the create's charge, the deposit.
    assert.deepEqual(typesOf(list).slice(0, 4).sort(), ['billing.charge_succeeded', 'billing.deposit', 'operation.completed', 'server.created'].sort());
    assert.deepEqual(typesOf(list).slice(-2), ['billing.charge_succeeded', 'billing.deposit']);
    const created = list.find((e) => e.type === 'server.created');
    assert.match(created.id, /^evt_[0-9A-Za-z]{16}$/);
    assert.deepEqual(created.resource, { type: 'server', id: s.id });
    assert.match(created.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // data is the server as GET /v2/servers/{id} shows it (the live power state and next charge aside).
    const { next_charge: _n, power_state: _p, ...server } = s;
    const { power_state: power, ...data } = created.data;
    assert.deepEqual(data, server);
    assert.equal(created.data.status, 'active');
    assert.equal(power, 'running');
    assert.ok(created.data.network.ipv4.address, 'with its address');

    const completed = list.find((e) => e.type === 'operation.completed');
    assert.equal(completed.resource.type, 'operation');
    assert.equal(completed.data.type, 'server.create');
    assert.equal(completed.data.status, 'completed');
    assert.deepEqual(completed.data.resource, { type: 'server', id: s.id });
    assert.equal(completed.data.params, undefined, 'an operation\'s params (the password) never leave');

    const charge = list.find((e) => e.type === 'billing.charge_succeeded');
    assert.equal(charge.resource.type, 'transaction');
    assert.equal(charge.data.type, 'withdraw');
    assert.equal(charge.data.amount.amount, '5.00');
    assert.match(charge.data.description, new RegExp(s.id));
    assert.equal(String(charge.data.id), charge.resource.id);
  });

  test('a create refused for balance writes no event; nor does a validation error', async () => {
    const c = await createCustomer(t, { deposit: '1.00' });
    const before = await events(c);
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'INSUFFICIENT_BALANCE');
    assert.equal((await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ plan_id: 999 }) })).statusCode, 422);
    assert.deepEqual(await events(c), before);
    assert.deepEqual(typesOf(before), ['billing.deposit']);
  });

  test('the sandbox writes none: a test key\'s create, delete and ticket leave the account\'s events as they were', async () => {
    const c = await createCustomer(t, { deposit: '50.00', isTest: true });
    const before = await events(c);
    const s = await createServer(t, c);
    assert.equal(json(await call(t.app, 'GET', `/v2/operations/${s.operation.id}`, { key: c.key })).data.status, 'completed');
    const ticket = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'Sandbox question', message: 'Does this sandbox request leave any trace at all?' } });
    assert.equal(ticket.statusCode, 201, ticket.body);
    const list = await events(c);
    assert.deepEqual(list, before);
    assert.equal(json(await call(t.app, 'GET', '/v2/events', { key: c.key })).meta.sandbox, true);
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE account_id = ${c.accountId} AND type <> 'billing.deposit'`.execute(t.database.db);
    assert.equal(r.rows[0]!.n, 0);
  });

  test('a failed create: operation.failed, the server cancelled (server.cancelled), the charge refunded (billing.refunded), and no server.created', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    // Not retryable: the first attempt fails for good.
    await adminCall(t, 'PUT', '/admin/v1/providers/compute/fault', { mode: 'capacity_unavailable', calls: ['create'], remaining: 1 });
    const created = await createServer(t, c);
    const op = await waitForOperation(t, c.key, created.operation.id);
    assert.equal(op.status, 'failed');
    const failed = await eventually(c, 'operation.failed', created.operation.id);
    assert.equal(failed[0].data.status, 'failed');
    assert.equal(failed[0].data.detail, op.detail);
    // The failure's one transaction: the operation's end, the server's, the refund.
    const cancelled = await events(c, { resource_id: created.id });
    assert.deepEqual(typesOf(cancelled), ['server.cancelled']);
    assert.equal(cancelled[0].data.status, 'cancelled');
    assert.deepEqual(cancelled[0].resource, { type: 'server', id: created.id });
    assert.equal((await events(c, { type: 'billing.refunded' })).length, 1);
    assert.equal((await events(c, { type: 'server.created' })).length, 0);
  });

  test('a clone: server.created for the new server; a clone that fails: server.cancelled for it, refunded', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    const s = await activeServer(t, c);
    const cloned = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/clone`, { key: c.key, body: {} });
    assert.equal(cloned.statusCode, 202, cloned.body);
    const clone = json(cloned).data.server;
    assert.equal((await waitForOperation(t, c.key, json(cloned).data.operation.id)).status, 'completed');
    const [created] = await eventually(c, 'server.created', clone.id);
    assert.equal(created.data.status, 'active');
    assert.ok(created.data.network.ipv4.address, 'with its address');

    await adminCall(t, 'PUT', '/admin/v1/providers/compute/fault', { mode: 'capacity_unavailable', calls: ['create'], remaining: 1 });
    const again = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/clone`, { key: c.key, body: { hostname: 'second-clone.example.com' } });
    assert.equal(again.statusCode, 202, again.body);
    const doomed = json(again).data.server;
    assert.equal((await waitForOperation(t, c.key, json(again).data.operation.id)).status, 'failed');
    const list = await events(c, { resource_id: doomed.id });
    assert.deepEqual(typesOf(list), ['server.cancelled']);
    assert.equal(list[0].data.status, 'cancelled');
    assert.equal((await events(c, { type: 'billing.refunded' })).length, 1);
  });

  test('a web hosting create that fails for good: web_hosting.cancelled with operation.failed and the refund', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    const h = await withPanelFault(t, 'capacity_unavailable', ['createAccount'], async () => {
      const ordered = await orderHosting(t, c);
      assert.equal((await waitForOperation(t, c.key, ordered.operation.id)).status, 'failed');
      return ordered;
    });
    const list = await events(c, { resource_id: h.id });
    assert.deepEqual(typesOf(list), ['web_hosting.cancelled']);
    assert.equal(list[0].data.status, 'cancelled');
    await eventually(c, 'operation.failed', h.operation.id);
    assert.equal((await events(c, { type: 'billing.refunded' })).length, 1);
    assert.equal((await events(c, { type: 'web_hosting.created' })).length, 0);
  });

  test('a delete: server.deleted (the server as it was deleted) and billing.refunded for the unused hours', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    const s = await activeServer(t, c);
    const res = await call(t.app, 'DELETE', `/v2/servers/${s.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const [deleted] = await eventually(c, 'server.deleted', s.id);
    assert.equal(deleted.data.id, s.id);
    assert.equal(deleted.data.name, s.name);
    assert.equal((await events(c, { type: 'billing.refunded' })).length, 1);
  });

  test('non-payment: billing.charge_failed and server.suspended; a deposit: billing.deposit, the charge, server.resumed', async () => {
    const c = await createCustomer(t, { deposit: '6.00' });
    const s = await activeServer(t, c);
    const now = new Date();
    await setServerDates(t, s.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 3_600_000) });
    const pass = passer(t);
    await pass(now, c.accountId);
    const [suspended] = await eventually(c, 'server.suspended', s.id);
    assert.equal(suspended.data.status, 'suspended');
    const [failed] = await events(c, { type: 'billing.charge_failed' });
    assert.equal(failed.resource.type, 'billing_charge');
    assert.deepEqual(failed.data.resource, { type: 'server', id: s.id });
    assert.equal(failed.data.amount.amount, '5.00');
    assert.equal(failed.data.status, 'due');
    assert.match(failed.data.reason, /Balance/);
    await settled(t, s.id);
    const dep = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '20.00' });
    assert.equal(dep.statusCode, 201, dep.body);
    const [resumed] = await eventually(c, 'server.resumed', s.id);
    assert.equal(resumed.data.status, 'active');
    assert.equal((await events(c, { type: 'billing.deposit' })).length, 2);
    assert.equal((await events(c, { type: 'billing.charge_succeeded' })).length, 2);
  });

  test('a ticket: ticket.opened, ticket.answered at each answer from support, ticket.closed once', async () => {
    const c = await createCustomer(t);
    const created = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'Console question', message: 'How do I open the console of my server, please?' } });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).data.id;
    const [opened] = await events(c);
    assert.equal(opened.type, 'ticket.opened');
    assert.deepEqual(opened.resource, { type: 'ticket', id });
    assert.equal(opened.data.status, 'open');
    assert.equal(opened.data.subject, 'Console question');
    // A refused one (bad input) writes none.
    assert.equal((await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: '', message: 'x' } })).statusCode, 422);
    assert.equal((await events(c)).length, 1);
    for (const message of ['Use GET /servers/{id}/console.', 'Any luck?']) {
      assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${id}/replies`, { message })).statusCode, 201);
    }
    assert.equal((await call(t.app, 'POST', `/v2/tickets/${id}/close`, { key: c.key })).statusCode, 200);
    const list = await events(c, { resource_type: 'ticket' });
    assert.deepEqual(typesOf(list), ['ticket.closed', 'ticket.answered', 'ticket.answered', 'ticket.opened']);
    assert.equal(list[0].data.status, 'closed');
    assert.equal(list[1].data.status, 'answered');
    assert.equal(list[0].data.id, id);
  });

  test('domains, web hosting and VDC VMs: domain.registered, domain.renewed, domain.transferred, web_hosting.created, web_hosting.cancelled, vdc_vm.created, vdc_vm.deleted', async () => {
    const c = await createCustomer(t, { deposit: '500.00' });
    const d = await activeDomain(t, c);
    const [registered] = await eventually(c, 'domain.registered', d.id);
    assert.equal(registered.data.status, 'active');
    assert.equal(registered.data.domain, d.domain);
    assert.equal(registered.data.auth_code, undefined);
    const renew = await call(t.app, 'POST', `/v2/domains/${d.id}/renew`, { key: c.key, body: { years: 1 } });
    assert.equal(renew.statusCode, 200, renew.body);
    const [renewed] = await eventually(c, 'domain.renewed', d.id);
    assert.equal(renewed.data.expires_at, json(renew).data.expires_at);

    const name = freshName('com', 'moving');
    await seedElsewhere(t, name, 'Secret-Auth-1', { expires_at: '2030-03-01T00:00:00Z' });
    const moved = await call(t.app, 'POST', '/v2/domains/transfer', { key: c.key, body: { domain: name, auth_code: 'Secret-Auth-1' } });
    assert.equal(moved.statusCode, 201, moved.body);
    const [transferred] = await eventually(c, 'domain.transferred', json(moved).data.id);
    assert.equal(transferred.data.status, 'active');
    assert.equal(transferred.data.domain, name);

    const h = await activeHosting(t, c);
    const [hosted] = await eventually(c, 'web_hosting.created', h.id);
    assert.equal(hosted.data.status, 'active');
    assert.equal((await call(t.app, 'POST', `/v2/web-hosting/${h.id}/cancel`, { key: c.key, body: { refund: false } })).statusCode, 200);
    assert.equal((await eventually(c, 'web_hosting.cancelled', h.id))[0].data.status, 'cancelled');

    await setPool(t, c.accountId, BIG_POOL);
    const vm = await activeVm(t, c);
    const [vmCreated] = await eventually(c, 'vdc_vm.created', vm.id);
    assert.equal(vmCreated.data.status, 'active');
    const del = await call(t.app, 'DELETE', `/v2/vdc/vms/${vm.id}`, { key: c.key, query: { confirm_name: vm.name } });
    assert.equal(del.statusCode, 200, del.body);
    await eventually(c, 'vdc_vm.deleted', vm.id);
  });
});

describe('non-payment to the end, and domains running out', () => {
  test('a server unpaid past the grace period: server.cancelled (after server.suspended), in the pass that cancels it', async () => {
    const c = await createCustomer(t, { deposit: '5.00' });
    const s = await activeServer(t, c);
    const now = new Date();
    await setServerDates(t, s.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 3_600_000) });
    const pass = passer(t);
    await pass(now, c.accountId);
    await eventually(c, 'server.suspended', s.id);
    await settled(t, s.id);
    assert.equal((await events(c, { type: 'server.cancelled' })).length, 0, 'not before the grace period ends');
    const r = await pass(plusDays(now, 15), c.accountId);
    assert.equal(r.cancelled, 1);
    const [cancelled] = await eventually(c, 'server.cancelled', s.id);
    assert.equal(cancelled.data.status, 'cancelled');
    assert.deepEqual(typesOf(await events(c, { resource_type: 'server' })), ['server.cancelled', 'server.suspended', 'server.created']);
  });

  test('web hosting unpaid: web_hosting.suspended, a deposit: web_hosting.resumed; unpaid again past the grace period: web_hosting.cancelled', async () => {
    const c = await createCustomer(t, { deposit: '3.99' });
    const h = await activeHosting(t, c);
    const now = new Date();
    await setHostingDates(t, h.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 60_000) });
    const pass = passer(t);
    await pass(now, c.accountId);
    const [suspended] = await eventually(c, 'web_hosting.suspended', h.id);
    assert.equal(suspended.data.status, 'suspended');
    const [failed] = await events(c, { type: 'billing.charge_failed' });
    assert.deepEqual(failed.data.resource, { type: 'web_hosting', id: h.id });
    await settled(t, h.id);
    assert.equal((await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '3.99' })).statusCode, 201);
    const [resumed] = await eventually(c, 'web_hosting.resumed', h.id);
    assert.equal(resumed.data.status, 'active');
    await settled(t, h.id);

    // The next cycle is not paid either, and stays unpaid past the grace period.
    const next = plusDays(now, 40);
    await setHostingDates(t, h.id, { created: plusDays(now, -31), start: now, next: plusDays(now, 30) });
    await pass(next, c.accountId);
    await eventually(c, 'web_hosting.suspended', h.id, 2);
    await settled(t, h.id);
    await pass(plusDays(next, 15), c.accountId);
    const [cancelled] = await eventually(c, 'web_hosting.cancelled', h.id);
    assert.equal(cancelled.data.status, 'cancelled');
    assert.deepEqual(typesOf(await events(c, { resource_type: 'web_hosting' })),
      ['web_hosting.cancelled', 'web_hosting.suspended', 'web_hosting.resumed', 'web_hosting.suspended', 'web_hosting.created']);
  });

  test('a domain that does not renew: domain.expiring at 30 days and again at 7, then domain.expired', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    // Not auto-renewed: the notices alone.
    const d = await activeDomain(t, c, { domain: freshName('com', 'ending'), auto_renew: false });
    const now = new Date();
    await setDomainExpiry(t, d.id, plusDays(now, 20));
    const pass = passer(t);
    await pass(now, c.accountId);
    const [expiring] = await eventually(c, 'domain.expiring', d.id);
    assert.equal(expiring.data.status, 'active');
    await pass(plusDays(now, 1), c.accountId);
    assert.equal((await events(c, { type: 'domain.expiring' })).length, 1, 'once per threshold');
    await pass(plusDays(now, 14), c.accountId);
    await eventually(c, 'domain.expiring', d.id, 2);
    await pass(plusDays(now, 21), c.accountId);
    const [expired] = await eventually(c, 'domain.expired', d.id);
    assert.equal(expired.data.status, 'expired');
    assert.deepEqual(typesOf(await events(c, { resource_type: 'domain' })), ['domain.expired', 'domain.expiring', 'domain.expiring', 'domain.registered']);
  });
});

describe('GET /v2/events', () => {
  let c: Customer;
  let server: Json;
  before(async () => {
    c = await createCustomer(t, { deposit: '50.00' });
    server = await activeServer(t, c);
    await eventually(c, 'server.created', server.id);
  });

  test('pages, newest first, with meta.pagination', async () => {
    const all = await events(c);
    const res = await call(t.app, 'GET', '/v2/events', { key: c.key, query: { page: '2', per_page: '1' } });
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.deepEqual(body.meta.pagination, { page: 2, per_page: 1, total: all.length, total_pages: all.length });
    assert.deepEqual(body.data, [all[1]]);
    const past = json(await call(t.app, 'GET', '/v2/events', { key: c.key, query: { page: '99' } }));
    assert.deepEqual(past.data, []);
    assert.equal(past.meta.pagination.total, all.length);
  });

  test('filters: type, resource_type, resource_id (together too)', async () => {
    assert.deepEqual(typesOf(await events(c, { type: 'server.created' })), ['server.created']);
    assert.deepEqual(typesOf(await events(c, { resource_type: 'transaction' })), ['billing.charge_succeeded', 'billing.deposit']);
    assert.deepEqual(typesOf(await events(c, { resource_id: server.id })), ['server.created']);
    assert.deepEqual(typesOf(await events(c, { resource_type: 'operation', resource_id: server.id })), []);
    assert.deepEqual(typesOf(await events(c, { type: 'server.created', resource_id: 'srv_other' })), []);
  });

  test('bad filters and pages → 422 naming the parameter', async () => {
    for (const [query, field] of [
      [{ type: 'server.exploded' }, 'type'], [{ resource_type: 'planet' }, 'resource_type'], [{ resource_id: '' }, 'resource_id'],
      [{ per_page: '101' }, 'per_page'], [{ page: '0' }, 'page'], [{ kind: 'x' }, 'kind'],
    ] as const) {
      const res = await call(t.app, 'GET', '/v2/events', { key: c.key, query });
      assert.equal(res.statusCode, 422, `${JSON.stringify(query)}: ${res.body}`);
      assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), [field]);
    }
  });

  test('GET /v2/events/{id}: the event as listed; another account\'s or an unknown id → 404', async () => {
    const [first] = await events(c);
    const res = await call(t.app, 'GET', `/v2/events/${first.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json(res).data, first);
    const other = await createCustomer(t);
    for (const [key, id] of [[other.key, first.id], [c.key, 'evt_nope'], [c.key, 'x'.repeat(65)]] as const) {
      const r = await call(t.app, 'GET', `/v2/events/${id}`, { key });
      assert.ok(r.statusCode === 404 || r.statusCode === 422, r.body);
      if (id === first.id) assert.equal(json(r).error.code, 'RESOURCE_NOT_FOUND');
    }
    assert.deepEqual(await events(other), [], 'another account\'s events are never listed');
  });

  test('scopes: events:read reads them; a key without it → 403', async () => {
    const narrow = await createCustomer(t, { scopes: ['servers:read'] });
    for (const url of ['/v2/events', '/v2/events/evt_x']) {
      const res = await call(t.app, 'GET', url, { key: narrow.key });
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    }
    const reader = await createCustomer(t, { scopes: ['events:read'] });
    assert.equal((await call(t.app, 'GET', '/v2/events', { key: reader.key })).statusCode, 200);
    // There is nothing to write: no such scope.
    const k = await adminCall(t, 'POST', `/admin/v1/accounts/${reader.accountId}/api-keys`, { name: 'w', ip_allowlist: ['127.0.0.1'], scopes: ['events:write'] });
    assert.equal(k.statusCode, 422, k.body);
  });
});

describe('retention and the database\'s part of the catalogue', () => {
  test('events older than EVENT_RETENTION_DAYS are removed by the worker\'s maintenance (pruneEvents)', async () => {
    const c = await createCustomer(t, { deposit: '5.00' });
    const [deposit] = await events(c);
    await sql`UPDATE events SET created_at = now() - interval '31 days' WHERE id = ${deposit.id}`.execute(t.database.db);
    assert.ok((await pruneEvents(t.database.db, 30)) >= 1);
    assert.deepEqual(await events(c), []);
    assert.equal((await call(t.app, 'GET', `/v2/events/${deposit.id}`, { key: c.key })).statusCode, 404);
  });

  test('the triggers\' mappings are the catalogue\'s: every operation type, every ledger type', async () => {
    for (const [type] of runnerEntries()) {
      const r = await sql<{ e: string | null }>`SELECT hc_completion_event(${type}) AS e`.execute(t.database.db);
      assert.equal(r.rows[0]!.e, COMPLETION_EVENTS[type as OperationType] ?? null, type);
    }
    for (const [type, event] of Object.entries(LEDGER_EVENTS)) {
      const r = await sql<{ e: string }>`SELECT hc_ledger_event_type(${type}) AS e`.execute(t.database.db);
      assert.equal(r.rows[0]!.e, event);
    }
    for (const e of [...Object.values(COMPLETION_EVENTS), ...Object.values(LEDGER_EVENTS)]) assert.ok(EVENT_TYPES.includes(e));
  });

  test('event ids made by the database look like the core\'s: evt_ and 16 base62 characters, distinct', async () => {
    const r = await sql<{ id: string }>`SELECT hc_new_id('evt') AS id FROM generate_series(1, 2000)`.execute(t.database.db);
    const ids = r.rows.map((x) => x.id);
    assert.ok(ids.every((id) => /^evt_[0-9A-Za-z]{16}$/.test(id)));
    assert.equal(new Set(ids).size, ids.length);
  });
});
