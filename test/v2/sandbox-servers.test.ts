// Test keys run the real code in a transaction that is rolled back: real validation and 422s,
// no rows, no charge, no job, and operations that can be polled and report completed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';

let t: TestApp;
let sandbox: Customer;
let live: Customer;

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

before(async () => {
  t = await startApp({ worker: 'embedded' });
  sandbox = await createCustomer(t, { deposit: '10.00', isTest: true });
  live = await createCustomer(t, { deposit: '10.00' });
});

test('a sandbox create answers like a live one, with meta.sandbox, and leaves no row anywhere', async () => {
  const before = await census();
  const res = await call(t.app, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody({ name: 'sbx.example.com' }), headers: { 'idempotency-key': randomUUID() } });
  assert.equal(res.statusCode, 201, res.body);
  const body = json(res);
  assert.equal(body.meta.sandbox, true);
  assert.equal(body.data.status, 'pending');
  assert.equal(body.data.operation.status, 'queued');
  assert.match(body.data.operation.id, /^op_sandbox_/);
  const after = await census();
  // api_keys.last_used_at is touched by any authenticated request; counts must not move at all.
  assert.deepEqual(after, before);
  const balance = json(await call(t.app, 'GET', '/v2/billing/balance', { key: sandbox.key }));
  assert.equal(balance.data.balance.amount, '10.00');
  assert.equal(balance.meta.sandbox, true);

  const op = await call(t.app, 'GET', `/v2/operations/${body.data.operation.id}`, { key: sandbox.key });
  assert.equal(op.statusCode, 200);
  assert.equal(json(op).data.status, 'completed');
  assert.equal(json(op).data.progress_pct, 100);
  assert.deepEqual(json(op).data.resource, { type: 'server', id: body.data.id });
  assert.equal(json(op).meta.sandbox, true);
  // Nothing was created, so the server itself is not there.
  assert.equal((await call(t.app, 'GET', `/v2/servers/${body.data.id}`, { key: sandbox.key })).statusCode, 404);
  assert.equal(json(await call(t.app, 'GET', '/v2/servers', { key: sandbox.key })).meta.pagination.total, 0);
});

test('sandbox validation and 422s are real', async () => {
  let res = await call(t.app, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody({ plan_id: 999 }) });
  assert.equal(json(res).error.code, 'PLAN_NOT_FOUND');
  res = await call(t.app, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody({ password: 'weak' }) });
  assert.equal(json(res).error.code, 'INVALID_PASSWORD');
  res = await call(t.app, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody({ plan_id: 5 }) });
  assert.equal(json(res).error.code, 'INSUFFICIENT_BALANCE', 'a 120.00 plan is more than the balance');
});

test("a sandbox operation id is not readable by a live key, nor by another account's test key", async () => {
  const res = await call(t.app, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody() });
  const opId = json(res).data.operation.id;
  assert.equal((await call(t.app, 'GET', `/v2/operations/${opId}`, { key: live.key })).statusCode, 404);
  const otherSandbox = await createCustomer(t, { isTest: true });
  assert.equal((await call(t.app, 'GET', `/v2/operations/${opId}`, { key: otherSandbox.key })).statusCode, 404);
});

test('the same hostname can be used twice in the sandbox (nothing was kept)', async () => {
  for (let i = 0; i < 2; i++) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody({ name: 'twice.example.com' }) });
    assert.equal(res.statusCode, 201);
  }
});
