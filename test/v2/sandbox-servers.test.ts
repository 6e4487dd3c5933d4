// Test keys run the real code in a transaction that is rolled back: real validation and 422s,
// no rows, no charge, no job, and operations that can be polled and report completed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeServer, serverBody } from '../helpers/servers.ts';

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

describe('every server write of a test key, on a live server of the same account', () => {
  let liveKey: Customer;
  let testKey: string;
  let server: { id: string; name: string };

  before(async () => {
    liveKey = await createCustomer(t, { deposit: '200.00' });
    const k = await call(t.app, 'POST', `/admin/v1/accounts/${liveKey.accountId}/api-keys`, {
      headers: { authorization: `Bearer ${t.adminToken}` }, body: { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true },
    });
    testKey = json(k).data.key;
    server = await activeServer(t, liveKey, { name: 'real.example.com' });
  });

  const writes: [string, string, (id: string) => string, unknown, number][] = [
    ['rename', 'PATCH', (id) => `/v2/servers/${id}`, { name: 'renamed.example.com' }, 200],
    ['reboot', 'POST', (id) => `/v2/servers/${id}/actions/reboot`, undefined, 202],
    ['resize', 'POST', (id) => `/v2/servers/${id}/actions/resize`, { ram_gb: 2 }, 202],
    ['upgrade', 'POST', (id) => `/v2/servers/${id}/actions/upgrade`, { package_id: 2 }, 200],
    ['snapshot', 'POST', (id) => `/v2/servers/${id}/snapshots`, { name: 'before-upgrade' }, 201],
    ['extra IP', 'POST', (id) => `/v2/servers/${id}/ips`, { version: 4 }, 201],
    ['console', 'GET', (id) => `/v2/servers/${id}/console`, undefined, 200],
    ['delete', 'DELETE', (id) => `/v2/servers/${id}`, undefined, 200],
  ];

  for (const [what, method, url, body, status] of writes) {
    test(`${what}: answers ${status} with meta.sandbox, and nothing changes`, async () => {
      const rows = await census();
      const balance = json(await call(t.app, 'GET', '/v2/billing/balance', { key: liveKey.key })).data.balance.amount;
      const before = json(await call(t.app, 'GET', `/v2/servers/${server.id}`, { key: liveKey.key })).data;
      const res = await call(t.app, method as 'GET', url(server.id), { key: testKey, ...(body === undefined ? {} : { body }) });
      assert.equal(res.statusCode, status, res.body);
      assert.equal(json(res).meta.sandbox, true);
      assert.deepEqual(await census(), rows);
      assert.equal(json(await call(t.app, 'GET', '/v2/billing/balance', { key: liveKey.key })).data.balance.amount, balance);
      assert.deepEqual(json(await call(t.app, 'GET', `/v2/servers/${server.id}`, { key: liveKey.key })).data, before);
      const op = json(res).data.operation;
      if (op) assert.equal(json(await call(t.app, 'GET', `/v2/operations/${op.id}`, { key: testKey })).data.status, 'completed');
    });
  }

  test('live and test keys of one account never replay each other through a shared Idempotency-Key', async () => {
    const key = randomUUID();
    const body = serverBody({ name: 'keyed.example.com' });
    const first = await call(t.app, 'POST', '/v2/servers', { key: testKey, body, headers: { 'idempotency-key': key } });
    assert.equal(first.statusCode, 201);
    const liveRes = await call(t.app, 'POST', '/v2/servers', { key: liveKey.key, body, headers: { 'idempotency-key': key } });
    assert.equal(liveRes.statusCode, 201);
    assert.equal(liveRes.headers['idempotent-replayed'], undefined, 'the sandbox response was not stored for the live key');
    assert.equal(json(liveRes).meta.sandbox, undefined);
    // The other way round, the test key's request runs for real: it sees the live server's name.
    const sbx = await call(t.app, 'POST', '/v2/servers', { key: testKey, body, headers: { 'idempotency-key': key } });
    assert.equal(sbx.headers['idempotent-replayed'], undefined);
    assert.equal(json(sbx).error.code, 'HOSTNAME_IN_USE');
  });
});
