// The admin routes the console's pages added: the server and VM lists' location, plan and search
// filters; power actions on any account's server or VDC VM (right `power`, the customer's own
// verbs: the account sees the operation); a notice sent again (right `notifications`); the
// operations list's search. Success shapes, bad input, unknown ids, and each role refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { insertNotification } from '../../src/db/queries/notifications.ts';
import { type Customer, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { CLOUD_S, FRA, type Json, activeServer } from '../helpers/servers.ts';
import { type TestStaff, createStaff } from '../helpers/staff.ts';
import { BIG_POOL, activeVm, setPool } from '../helpers/vdc.ts';

const t = await startApp({ worker: 'embedded' });
const db = t.database.db;
const a: Customer = await createCustomer(t, { deposit: '200.00', email: `zed-${Date.now()}@pages.example` });
const b: Customer = await createCustomer(t, { deposit: '200.00' });
const [sa, sb]: Json[] = await Promise.all([activeServer(t, a, { name: 'alpha-console.example.com' }), activeServer(t, b)]);
const staff = new Map<string, TestStaff>();
for (const role of ['admin', 'support', 'billing', 'readonly'] as const) staff.set(role, await createStaff(t, role));

type Res = Awaited<ReturnType<typeof call>>;
const as = (role: string, method: 'GET' | 'POST', url: string, body?: unknown) => call(t.app, method, url, { key: staff.get(role)!.token, body });
const ids = (res: Res) => (json(res).data as { id: string }[]).map((r) => r.id);

function assertError(res: Res, status: number, code: string, field?: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(json(res).error.code, code, res.body);
  if (field) assert.ok(JSON.stringify(json(res).error.errors ?? []).includes(field), `${field}: ${res.body}`);
}

test('GET /admin/v1/servers: location, plan and search filters; plan_id on each row', async () => {
  const all = await adminCall(t, 'GET', '/admin/v1/servers');
  assert.equal(all.statusCode, 200, all.body);
  const row = (json(all).data as Json[]).find((r) => r.id === sa.id);
  assert.equal(row.plan_id, CLOUD_S);
  assert.equal(row.location_id, FRA);
  assert.deepEqual(ids(await adminCall(t, 'GET', '/admin/v1/servers?q=ALPHA-CONS')).sort(), [sa.id], 'name, any case');
  assert.deepEqual(ids(await adminCall(t, 'GET', '/admin/v1/servers?q=pages.example')), [sa.id], 'owner\'s email');
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?q=${sb.id}`)), [sb.id], 'id');
  const ip = (json(all).data as Json[]).find((r) => r.id === sb.id).ipv4 as string;
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?q=${encodeURIComponent(ip)}`)), [sb.id], 'address');
  assert.deepEqual(ids(await adminCall(t, 'GET', '/admin/v1/servers?q=100%25_')), [], '% and _ are literal');
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?location_id=${FRA}&plan_id=${CLOUD_S}`)).sort(), [sa.id, sb.id].sort());
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?plan_id=999`)), []);
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?location_id=999`)), []);
  const paged = json(await adminCall(t, 'GET', '/admin/v1/servers?q=alpha&page=2'));
  assert.deepEqual([paged.data.length, paged.meta.pagination.total], [0, 1], 'a page past the end counts the search');

  assertError(await adminCall(t, 'GET', '/admin/v1/servers?location_id=x'), 422, 'VALIDATION_FAILED', 'location_id');
  assertError(await adminCall(t, 'GET', '/admin/v1/servers?plan_id=0'), 422, 'VALIDATION_FAILED', 'plan_id');
  assertError(await adminCall(t, 'GET', `/admin/v1/servers?q=${'x'.repeat(101)}`), 422, 'VALIDATION_FAILED', 'q');
  assertError(await adminCall(t, 'GET', '/admin/v1/vdc-vms?plan_id=1'), 422, 'VALIDATION_FAILED', 'plan_id');
  // services:read: every role but none has it.
  for (const role of ['support', 'billing', 'readonly']) assert.equal((await as(role, 'GET', '/admin/v1/servers?q=alpha')).statusCode, 200, role);
});

test('POST /admin/v1/servers/{id}/actions: the customer\'s own operation, run for the owner; refusals', async () => {
  const stop = await as('support', 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'stop' });
  assert.equal(stop.statusCode, 202, stop.body);
  const op = json(stop).data.operation;
  assert.equal(op.type, 'server.stop');
  assert.deepEqual(op.resource, { type: 'server', id: sa.id });
  // The account reads it as its own, and it runs as a customer's would.
  const done = await waitForOperation(t, a.key, op.id);
  assert.equal(done.status, 'completed', done.detail);
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${sa.id}`, { key: a.key })).data.power_state, 'stopped');
  assertError(await call(t.app, 'GET', `/v2/operations/${op.id}`, { key: b.key }), 404, 'RESOURCE_NOT_FOUND');
  // Its event is the account's, as for its own request (and the webhooks' outbox reads the same rows).
  const events = json(await call(t.app, 'GET', `/v2/events?type=operation.completed&resource_id=${op.id}`, { key: a.key }));
  assert.equal(events.data.length, 1, JSON.stringify(events));
  assert.equal(json(await call(t.app, 'GET', `/v2/events?resource_id=${op.id}`, { key: b.key })).data.length, 0);
  const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'runServerPowerAction').execute();
  assert.equal(audit.length, 1);
  assert.deepEqual([audit[0]!.target_type, audit[0]!.target_id], ['server', sa.id]);

  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'stop' }), 409, 'STATE_CONFLICT');
  const start = await adminCall(t, 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'start' });
  assert.equal(start.statusCode, 202, start.body);
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'reboot' }), 409, 'STATE_CONFLICT', undefined);
  assert.equal((await waitForOperation(t, a.key, json(start).data.operation.id)).status, 'completed');

  assertError(await adminCall(t, 'POST', '/admin/v1/servers/srv_nope/actions', { type: 'start' }), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'explode' }), 422, 'VALIDATION_FAILED', 'type');
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${sa.id}/actions`, {}), 422, 'VALIDATION_FAILED', 'type');
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'reboot', password: 'x' }), 422, 'VALIDATION_FAILED', 'password');
  for (const role of ['billing', 'readonly']) assertError(await as(role, 'POST', `/admin/v1/servers/${sa.id}/actions`, { type: 'reboot' }), 403, 'AUTH_SCOPE_INSUFFICIENT');
  assertError(await call(t.app, 'POST', `/admin/v1/servers/${sa.id}/actions`, { key: a.key, body: { type: 'reboot' } }), 401, 'AUTH_INVALID');
});

test('POST /admin/v1/vdc-vms/{id}/actions: a VM\'s power, the same way', async () => {
  await setPool(t, b.accountId, BIG_POOL);
  const vm = await activeVm(t, b);
  const res = await as('admin', 'POST', `/admin/v1/vdc-vms/${vm.id}/actions`, { type: 'reboot' });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(json(res).data.operation.type, 'vdc_vm.reboot');
  assert.equal((await waitForOperation(t, b.key, json(res).data.operation.id)).status, 'completed');
  assertError(await adminCall(t, 'POST', `/admin/v1/vdc-vms/${vm.id}/actions`, { type: 'start' }), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'POST', '/admin/v1/vdc-vms/vm_nope/actions', { type: 'start' }), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'POST', `/admin/v1/vdc-vms/${vm.id}/actions`, { type: 'migrate' }), 422, 'VALIDATION_FAILED', 'type');
  const vms = await adminCall(t, 'GET', `/admin/v1/vdc-vms?q=${vm.id}`);
  assert.deepEqual(ids(vms), [vm.id]);
  assert.equal(json(vms).data[0].plan_id, null);
  for (const role of ['billing', 'readonly']) assertError(await as(role, 'POST', `/admin/v1/vdc-vms/${vm.id}/actions`, { type: 'stop' }), 403, 'AUTH_SCOPE_INSUFFICIENT');
});

test('POST /admin/v1/notifications/{id}/resend: failed → queued again; sent → a copy; queued → 409', async () => {
  // Due far ahead, so the file's worker leaves them be.
  const notice = async (status: 'queued' | 'sent' | 'failed') => {
    const n = await insertNotification(db, { account_id: a.accountId, kind: 'test.resend', to_email: 'x@pages.example', subject: `A ${status} notice`, body: 'Body' });
    await db.updateTable('notifications').set({ status, attempts: 3, last_error: status === 'failed' ? 'SMTP said no' : null, next_attempt_at: sql<Date>`now() + interval '1 day'`, sent_at: status === 'sent' ? new Date() : null }).where('id', '=', n.id).execute();
    return n.id;
  };
  const failed = await notice('failed');
  const res = await adminCall(t, 'POST', `/admin/v1/notifications/${failed}/resend`);
  assert.equal(res.statusCode, 202, res.body);
  const body = json(res).data;
  assert.equal(body.outcome, 'requeued');
  assert.equal(body.notification.id, failed);
  assert.equal(body.notification.attempts, 0);
  assert.equal(body.notification.last_error, 'SMTP said no', 'kept until a send succeeds');

  const sent = await notice('sent');
  const copy = await as('admin', 'POST', `/admin/v1/notifications/${sent}/resend`);
  assert.equal(copy.statusCode, 202, copy.body);
  assert.equal(json(copy).data.outcome, 'copied');
  assert.notEqual(json(copy).data.notification.id, sent);
  assert.equal(json(copy).data.notification.subject, 'A sent notice');
  const original = await db.selectFrom('notifications').selectAll().where('id', '=', sent).executeTakeFirstOrThrow();
  assert.equal(original.status, 'sent', 'the record of what went out stays');

  assertError(await adminCall(t, 'POST', `/admin/v1/notifications/${await notice('queued')}/resend`), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'POST', '/admin/v1/notifications/999999999/resend'), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'POST', '/admin/v1/notifications/abc/resend'), 422, 'VALIDATION_FAILED', 'id');
  for (const role of ['support', 'billing', 'readonly']) assertError(await as(role, 'POST', `/admin/v1/notifications/${failed}/resend`), 403, 'AUTH_SCOPE_INSUFFICIENT');

  const found = json(await adminCall(t, 'GET', '/admin/v1/notifications?q=A%20SENT')).data as Json[];
  assert.deepEqual(found.map((n) => n.subject), ['A sent notice', 'A sent notice'], 'the copy and the original');
  assertError(await adminCall(t, 'GET', `/admin/v1/notifications?q=${'x'.repeat(101)}`), 422, 'VALIDATION_FAILED', 'q');
});

test('GET /admin/v1/operations?q=: an operation\'s, a resource\'s or an account\'s id', async () => {
  const byResource = json(await adminCall(t, 'GET', `/admin/v1/operations?q=${sb.id}`)).data as Json[];
  assert.ok(byResource.length >= 1 && byResource.every((o) => o.resource.id === sb.id), JSON.stringify(byResource));
  const byAccount = json(await adminCall(t, 'GET', `/admin/v1/operations?q=${b.accountId}&per_page=100`)).data as Json[];
  assert.ok(byAccount.length >= 1 && byAccount.every((o) => o.account_id === b.accountId));
  const one = byResource[0].id as string;
  assert.deepEqual((json(await adminCall(t, 'GET', `/admin/v1/operations?q=${one}`)).data as Json[]).map((o) => o.id), [one]);
  assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/operations?q=op_nope')).data, []);
  assertError(await adminCall(t, 'GET', `/admin/v1/operations?q=${'x'.repeat(65)}`), 422, 'VALIDATION_FAILED', 'q');
});
