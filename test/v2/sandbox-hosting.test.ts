// Test keys and web hosting: every write runs the real code in a transaction that is rolled back,
// with the no-op panel and queue — real validation and 422s, no row in any table, no charge, no
// notice, no panel call — and answers carry meta.sandbox.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeHosting, orderBody, setPanelCapacity } from '../helpers/hosting.ts';
import { assertError, assertInvalid } from '../helpers/server-extras.ts';
import type { Json } from '../helpers/servers.ts';

let t: TestApp;
let live: Customer;
/** A test key of the live customer: it can act on the live customer's real hosting accounts. */
let testKey: string;
let hosting: Json;

/** Row counts of every table we own and of the job queue. */
async function census(): Promise<Record<string, number>> {
  const { rows } = await sql<{ table_name: string; table_schema: string }>`
    SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`.execute(t.database.db);
  const out: Record<string, number> = {};
  for (const r of rows) {
    const { rows: [n] } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(`${r.table_schema}.${r.table_name}`)}`.execute(t.database.db);
    out[`${r.table_schema}.${r.table_name}`] = n!.n;
  }
  return out;
}

/** What must not move: the census, the account's hosting rows as they are, the balance. */
async function state() {
  return {
    census: await census(),
    hosting: await t.database.db.selectFrom('web_hosting').selectAll().orderBy('id').execute(),
    panel: await t.database.db.selectFrom('sim_hosting_accounts').selectAll().orderBy('id').execute(),
    balance: json(await call(t.app, 'GET', '/v2/billing/balance', { key: live.key })).data.balance.amount,
  };
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  live = await createCustomer(t, { deposit: '60.00' });
  testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${live.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true })).data.key;
  hosting = await activeHosting(t, live);
});

test('order: answers like a live one with meta.sandbox and a sandbox operation, and leaves no row anywhere', async () => {
  const before = await state();
  const res = await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: orderBody({ billing_cycle: 'yearly' }), headers: { 'idempotency-key': randomUUID() } });
  assert.equal(res.statusCode, 201, res.body);
  const { data, meta } = json(res);
  assert.equal(meta.sandbox, true);
  assert.equal(data.status, 'pending');
  assert.equal(data.billing.amount, '39.90');
  assert.match(data.operation.id, /^op_sandbox_/);
  assert.deepEqual(await state(), before);
  const op = json(await call(t.app, 'GET', `/v2/operations/${data.operation.id}`, { key: testKey }));
  assert.equal(op.data.status, 'completed');
  assert.deepEqual(op.data.resource, { type: 'web_hosting', id: data.id });
  assertError(await call(t.app, 'GET', `/v2/web-hosting/${data.id}`, { key: testKey }), 404, 'RESOURCE_NOT_FOUND');
  // The same domain again: nothing was kept.
  const again = await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: { domain: data.domain, package_id: 1 } });
  assert.equal(again.statusCode, 201, again.body);
});

test('order: validation, the live domain, the balance and the room are real checks in the sandbox', async () => {
  assertInvalid(await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: orderBody({ domain: 'bad domain' }) }), ['domain']);
  assertInvalid(await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: orderBody({ package_id: 4 }) }), ['package_id']);
  assertError(await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: orderBody({ domain: hosting.domain }) }), 409, 'STATE_CONFLICT');
  assertError(await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: orderBody({ package_id: 3, billing_cycle: 'yearly' }) }), 422, 'INSUFFICIENT_BALANCE');
  // The sandbox's panel always has room: the live panel being full does not reach it.
  await setPanelCapacity(t, 0);
  try {
    assert.equal((await call(t.app, 'POST', '/v2/web-hosting', { key: testKey, body: orderBody() })).statusCode, 201);
  } finally {
    await setPanelCapacity(t, 250);
  }
});

test('renew and cancel of a real account: real answers, nothing changed, no refund, no notice, no termination', async () => {
  const before = await state();
  const renew = await call(t.app, 'POST', `/v2/web-hosting/${hosting.id}/renew`, { key: testKey, headers: { 'idempotency-key': randomUUID() } });
  assert.equal(renew.statusCode, 200, renew.body);
  assert.equal(json(renew).meta.sandbox, true);
  assert.deepEqual(json(renew).data.charged, { amount: '3.99', currency: 'USD' });
  assert.notEqual(json(renew).data.billing.next_billing_at, hosting.billing.next_billing_at);
  assert.deepEqual(await state(), before);

  const cancel = await call(t.app, 'POST', `/v2/web-hosting/${hosting.id}/cancel`, { key: testKey, body: { refund: true, send_email: true, reason: 'sandbox' } });
  assert.equal(cancel.statusCode, 200, cancel.body);
  assert.equal(json(cancel).meta.sandbox, true);
  assert.equal(json(cancel).data.status, 'cancelled');
  assert.deepEqual(json(cancel).data.refund, { amount: '3.99', currency: 'USD' });
  assert.match(json(cancel).data.operation.id, /^op_sandbox_/);
  assert.deepEqual(await state(), before);
  const real = json(await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}`, { key: live.key })).data;
  assert.equal(real.status, 'active');
  assert.deepEqual(real.billing, hosting.billing);
});

test('login: a sandbox link, nothing recorded; the detail asks no panel (used_mb null)', async () => {
  const before = await state();
  const login = await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}/login`, { key: testKey });
  assert.equal(login.statusCode, 200, login.body);
  const u = new URL(json(login).data.login_url);
  assert.equal((await call(t.app, 'GET', u.pathname + u.search)).statusCode, 200);
  const detail = json(await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}`, { key: testKey }));
  assert.equal(detail.meta.sandbox, true);
  assert.equal(detail.data.disk_usage.used_mb, null);
  assert.equal(json(await call(t.app, 'GET', '/v2/web-hosting', { key: testKey })).meta.pagination.total, 1, 'the sandbox reads live data');
  assert.deepEqual(await state(), before);
});
