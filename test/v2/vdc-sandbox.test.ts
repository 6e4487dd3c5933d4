// Test keys on VDC: every write runs the real rules in a transaction that is rolled back, with a
// no-op platform — real 422s and 409s, meta.sandbox, pollable operations, and no row anywhere.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertError } from '../helpers/server-actions.ts';
import { type Json } from '../helpers/servers.ts';
import { activeVm, assertPoolConsistent, resources, setPool, vmBody } from '../helpers/vdc.ts';

let t: TestApp;
let owner: Customer;
let testKey: string;
let vm: Json;
let snapshotId: number;

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

/** Everything about the account's VDC a write could change. */
async function vdcState() {
  const db = t.database.db;
  return {
    pool: await db.selectFrom('vdc_pools').selectAll().where('account_id', '=', owner.accountId).execute(),
    vms: await db.selectFrom('vdc_vms').selectAll().where('account_id', '=', owner.accountId).orderBy('id').execute(),
    snapshots: await db.selectFrom('vdc_snapshots').selectAll().where('account_id', '=', owner.accountId).orderBy('id').execute(),
    machines: await db.selectFrom('sim_vms').select(['id', 'power', 'cpu_cores', 'os_slug', 'destroyed_at']).orderBy('id').execute(),
  };
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  owner = await createCustomer(t);
  await setPool(t, owner.accountId, { cpu: 6, ram_mb: 16384, storage_gb: 200, ipv4: 4, ipv6: 4 });
  vm = await activeVm(t, owner, { name: 'real.example.com', cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
  const snap = await call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/snapshots`, { key: owner.key, body: { name: 'real' } });
  snapshotId = json(snap).data.id;
  await waitForOperation(t, owner.key, json(snap).data.operation.id);
  testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1'], is_test: true })).data.key;
});

const writes: [string, string, () => string, unknown, number][] = [
  ['create a VM', 'POST', () => '/v2/vdc/vms', vmBody({ name: 'sbx.example.com' }), 201],
  ['stop', 'POST', () => `/v2/vdc/vms/${vm.id}/actions/stop`, undefined, 202],
  ['reboot', 'POST', () => `/v2/vdc/vms/${vm.id}/actions/reboot`, undefined, 202],
  ['reset_password', 'POST', () => `/v2/vdc/vms/${vm.id}/actions/reset_password`, undefined, 202],
  ['reinstall', 'POST', () => `/v2/vdc/vms/${vm.id}/actions/reinstall`, { os_version_id: 3 }, 202],
  ['resize', 'POST', () => `/v2/vdc/vms/${vm.id}/actions/resize`, { cpu_cores: 4, storage_gb: 40 }, 202],
  ['take a snapshot', 'POST', () => `/v2/vdc/vms/${vm.id}/snapshots`, { name: 'sbx' }, 201],
  ['restore a snapshot', 'POST', () => `/v2/vdc/vms/${vm.id}/snapshots/${snapshotId}/restore`, undefined, 202],
  ['delete a snapshot', 'DELETE', () => `/v2/vdc/vms/${vm.id}/snapshots/${snapshotId}`, undefined, 200],
  ['delete the VM', 'DELETE', () => `/v2/vdc/vms/${vm.id}?confirm_name=real.example.com`, undefined, 200],
];

for (const [what, method, url, body, status] of writes) {
  test(`${what}: ${status} with meta.sandbox and a completed operation; no row anywhere, the pool and the VM unchanged`, async () => {
    const rows = await census();
    const state = await vdcState();
    const res = await call(t.app, method as 'GET', url(), { key: testKey, ...(body === undefined ? {} : { body }) });
    assert.equal(res.statusCode, status, res.body);
    const out = json(res);
    assert.equal(out.meta.sandbox, true);
    const op = out.data.operation;
    assert.match(op.id, /^op_sandbox_/);
    assert.equal(op.resource.type, 'vdc_vm');
    const polled = json(await call(t.app, 'GET', `/v2/operations/${op.id}`, { key: testKey }));
    assert.equal(polled.data.status, 'completed');
    assert.equal(polled.meta.sandbox, true);
    assert.deepEqual(await census(), rows);
    assert.deepEqual(await vdcState(), state);
  });
}

test('a sandbox create with an Idempotency-Key stores nothing either', async () => {
  const rows = await census();
  const res = await call(t.app, 'POST', '/v2/vdc/vms', { key: testKey, body: vmBody(), headers: { 'idempotency-key': randomUUID() } });
  assert.equal(res.statusCode, 201, res.body);
  assert.deepEqual(await census(), rows);
});

test('sandbox rules are real: the pool, passwords, confirmation, state', async () => {
  const rows = await census();
  // 2 of 6 vCPUs are used: a 5-vCPU VM does not fit, in the sandbox as live.
  assertError(await call(t.app, 'POST', '/v2/vdc/vms', { key: testKey, body: vmBody({ cpu_cores: 5 }) }), 422, 'QUOTA_EXCEEDED', 'cpu');
  assertError(await call(t.app, 'POST', '/v2/vdc/vms', { key: testKey, body: vmBody({ password: 'weakpass' }) }), 422, 'INVALID_PASSWORD', 'password');
  assertError(await call(t.app, 'DELETE', `/v2/vdc/vms/${vm.id}`, { key: testKey, query: { confirm_name: 'nope' } }), 422, 'VALIDATION_FAILED', 'confirm_name');
  assertError(await call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/actions/start`, { key: testKey }), 409, 'STATE_CONFLICT');
  assertError(await call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/actions/resize`, { key: testKey, body: { cpu_cores: 9 } }), 422, 'QUOTA_EXCEEDED', 'cpu');
  assert.deepEqual(await census(), rows);
  // Reads see the real VDC, marked sandbox.
  const pool = json(await call(t.app, 'GET', '/v2/vdc/resources', { key: testKey }));
  assert.equal(pool.meta.sandbox, true);
  assert.deepEqual(pool.data.cpu, { total: 6, used: 2, available: 4 });
  const detail = json(await call(t.app, 'GET', `/v2/vdc/vms/${vm.id}`, { key: testKey }));
  assert.equal(detail.data.id, vm.id);
  assert.equal(detail.meta.sandbox, true);
  assert.deepEqual(await resources(t, owner.key), pool.data);
  await assertPoolConsistent(t, owner.accountId);
});
