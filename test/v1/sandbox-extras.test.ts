// Test keys through v1 on VDC, tickets and sub-users: every write runs the real rules in a
// transaction that is rolled back, with a no-op platform — real answers (and real 422s), the
// X-Sandbox header, and no row anywhere afterwards.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { PASSWORD, UBUNTU } from '../helpers/servers.ts';
import { activeVm, setPool } from '../helpers/vdc.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let owner: Customer;
let testKey: string;
let vm: { id: string; name: string };
let snapshotId: number;
let ticketId: string;
let subUserId: number;

/** Row counts of every table we own and of the job queue. */
async function census(): Promise<Record<string, number>> {
  const { rows } = await sql<{ table_name: string; table_schema: string }>`
    SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`.execute(t.database.db);
  const counts = rows.map((r) => sql<number>`(SELECT count(*)::int FROM ${sql.table(`${r.table_schema}.${r.table_name}`)})`.as(`${r.table_schema}.${r.table_name}`));
  const { rows: [n] } = await sql<Record<string, number>>`SELECT ${sql.join(counts)}`.execute(t.database.db);
  return n!;
}

/** What the owner's writes could change in place (not only add rows to). */
async function state() {
  const db = t.database.db;
  return {
    pool: await db.selectFrom('vdc_pools').selectAll().where('account_id', '=', owner.accountId).execute(),
    vms: await db.selectFrom('vdc_vms').selectAll().where('account_id', '=', owner.accountId).orderBy('id').execute(),
    snapshots: await db.selectFrom('vdc_snapshots').selectAll().where('account_id', '=', owner.accountId).orderBy('id').execute(),
    tickets: await db.selectFrom('tickets').selectAll().where('account_id', '=', owner.accountId).orderBy('id').execute(),
    subUsers: await db.selectFrom('sub_users').selectAll().where('account_id', '=', owner.accountId).orderBy('id').execute(),
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
  ticketId = json(await call(t.app, 'POST', '/v2/tickets', { key: owner.key, body: { subject: 'Real', message: 'A real ticket with a long enough message to pass.' } })).data.id;
  subUserId = json(await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/sub-users`, { email: 'real@example.com', first_name: 'Real', last_name: 'One' })).data.id;
  testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1'], is_test: true })).data.key;
});

const REPLY = 'Still down after a reboot; the console shows no bootable device.';
const writes: [string, 'POST' | 'PUT' | 'DELETE', () => string, unknown, number][] = [
  ['create a VM', 'POST', () => '/v1/vms', { vm_name: 'sbx.example.com', password: PASSWORD, cpu_cores: 1, ram_gb: 1, disk_gb: 10, location_name: 'Frankfurt', os_id: UBUNTU }, 200],
  ['stop a VM', 'POST', () => `/v1/vms/${vm.id}/stop`, undefined, 200],
  ['resize a VM', 'POST', () => `/v1/vms/${vm.id}/resize`, { cpu_cores: 3, disk_gb: 30 }, 200],
  ['take a snapshot', 'POST', () => `/v1/vms/${vm.id}/snapshots`, { name: 'sbx' }, 200],
  ['restore a snapshot', 'POST', () => `/v1/vms/${vm.id}/snapshots/${snapshotId}/restore`, undefined, 200],
  ['delete a snapshot', 'DELETE', () => `/v1/vms/${vm.id}/snapshots/${snapshotId}`, undefined, 200],
  ['delete the VM', 'DELETE', () => `/v1/vms/${vm.id}`, { confirm_vm_name: 'real.example.com' }, 200],
  ['open a ticket', 'POST', () => '/v1/tickets', { subject: 'Sandbox', message: REPLY, department_id: 1 }, 200],
  ['reply to a ticket', 'POST', () => `/v1/tickets/${ticketId}/reply`, { message: REPLY }, 200],
  ['close a ticket', 'POST', () => `/v1/tickets/${ticketId}/close`, undefined, 200],
  ['create a sub-user', 'POST', () => '/v1/sub-users', { email: 'sbx@example.com', first_name: 'S', last_name: 'B', password: PASSWORD }, 200],
  ['rename a sub-user', 'PUT', () => `/v1/sub-users/${subUserId}`, { first_name: 'Renamed' }, 200],
  ['delete a sub-user', 'DELETE', () => `/v1/sub-users/${subUserId}`, undefined, 200],
];

for (const [what, method, url, body, status] of writes) {
  test(`${what} with a test key: ${status}, X-Sandbox, and no row anywhere; nothing changed`, async () => {
    const rows = await census();
    const before = await state();
    const res = await v1(t.app, method, url(), { key: testKey, ...(body === undefined ? {} : { body }) });
    assert.equal(res.statusCode, status, res.body);
    assert.equal(json(res).success, true);
    assert.equal(res.headers['x-sandbox'], 'true');
    assert.deepEqual(await census(), rows);
    assert.deepEqual(await state(), before);
  });
}

test('sandbox rules are real through v1: quota, passwords, confirmation, ticket text', async () => {
  const rows = await census();
  expectV1Error(await v1(t.app, 'POST', '/v1/vms', {
    key: testKey, body: { vm_name: 'big.example.com', password: PASSWORD, cpu_cores: 5, ram_gb: 1, disk_gb: 10, location_name: 'Frankfurt', os_id: UBUNTU },
  }), 422, 'QUOTA_EXCEEDED', ['cpu_cores']);
  expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vm.id}`, { key: testKey, body: { confirm_vm_name: 'nope' } }), 422, 'VALIDATION_FAILED', ['confirm_vm_name']);
  expectV1Error(await v1(t.app, 'POST', '/v1/sub-users', { key: testKey, body: { email: 'w@example.com', first_name: 'W', last_name: 'K', password: 'weakpass' } }), 422, 'INVALID_PASSWORD');
  expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${ticketId}/reply`, { key: testKey, body: { message: 'short' } }), 422, 'VALIDATION_FAILED', ['message']);
  assert.deepEqual(await census(), rows);
  // Reads see the real data.
  const res = await v1(t.app, 'GET', '/v1/vms', { key: testKey });
  assert.deepEqual(json(res).data.vms.map((v: { unique_id: string }) => v.unique_id), [vm.id]);
  assert.equal(res.headers['x-sandbox'], 'true');
});
