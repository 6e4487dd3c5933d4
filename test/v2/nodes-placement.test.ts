// Placement at create: the policy (most free RAM, then most free vCPUs, then lowest id), capacity
// held in SQL under concurrency (20 parallel creates against nodes that fit exactly 5), no room →
// 422 CAPACITY_UNAVAILABLE with nothing charged, and usage counting servers and VDC VMs alike.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, BUSY_MACHINE_CONNECT_WAIT_MS, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { CLOUD_S_SIZE, addNode, newLocation, nodeRow, setNodeStatus } from '../helpers/nodes.ts';
import { assertError, assertLedger, balanceCents, serverRow } from '../helpers/server-actions.ts';
import { createServer, serverBody } from '../helpers/servers.ts';
import { BIG_POOL, createVm, setPool } from '../helpers/vdc.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded', databaseConnectTimeoutMs: BUSY_MACHINE_CONNECT_WAIT_MS });
  c = await createCustomer(t, { deposit: '500.00' });
});

/** Room for exactly `n` Cloud S servers (1 vCPU, 1 GB, 25 GB each). */
const fitting = (n: number) => ({ cpu_cores: n * CLOUD_S_SIZE.cpu_cores, ram_mb: n * CLOUD_S_SIZE.ram_mb, storage_gb: n * CLOUD_S_SIZE.storage_gb });

test('20 parallel creates against nodes that fit exactly 5: 5 servers, 15 × 422 CAPACITY_UNAVAILABLE, 5 charges', async () => {
  const loc = await newLocation(t, 'race1', 60);
  const a = await addNode(t, { location_id: loc, name: 'race1-kvm1', cpu_vendor: 'intel', ...fitting(3) });
  const b = await addNode(t, { location_id: loc, name: 'race1-kvm2', cpu_vendor: 'amd', ...fitting(2) });
  const before = await balanceCents(t, c.accountId);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) })));
  const created = results.filter((r) => r.statusCode === 201);
  const refused = results.filter((r) => r.statusCode === 422);
  assert.equal(created.length, 5, results.map((r) => r.statusCode).join(','));
  assert.equal(refused.length, 15);
  for (const r of refused) assertError(r, 422, 'CAPACITY_UNAVAILABLE');
  assert.match(json(refused[0]!).error.message, /No node in location \d+ has room for 1 vCPU, 1024 MB RAM and 25 GB disk/);
  assert.equal(await balanceCents(t, c.accountId), before - 5 * 500, 'only the five placed were charged');
  await assertLedger(t, c.accountId);
  for (const n of [a, b]) {
    const row = await nodeRow(t, n.id);
    assert.deepEqual([row.used_cpu, row.used_ram_mb, row.used_storage_gb], [row.cpu_cores, row.ram_mb, row.storage_gb], `${row.name} is exactly full`);
  }
  const placed = await t.database.db.selectFrom('servers').select(['node_id']).where('location_id', '=', loc).execute();
  assert.deepEqual(placed.map((p) => p.node_id).sort(), [a.id, a.id, a.id, b.id, b.id].sort());
  for (const r of created) assert.equal((await waitForOperation(t, c.key, json(r).data.operation.id)).status, 'completed');
  // Deleting one gives its room back: the next create fits again.
  const gone = json(created[0]!).data;
  const del = await call(t.app, 'DELETE', `/v2/servers/${gone.id}`, { key: c.key });
  assert.ok([200, 202].includes(del.statusCode), del.body);
  const again = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
  assert.equal(again.statusCode, 201, again.body);
});

test('the policy: most free RAM first, then most free vCPUs, then the lowest id; only active nodes', async () => {
  const loc = await newLocation(t, 'pol1', 61);
  const small = await addNode(t, { location_id: loc, name: 'pol1-small', cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 8192, storage_gb: 500 });
  const big = await addNode(t, { location_id: loc, name: 'pol1-big', cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 16384, storage_gb: 500 });
  const twin = await addNode(t, { location_id: loc, name: 'pol1-twin', cpu_vendor: 'amd', cpu_cores: 16, ram_mb: 16384, storage_gb: 500 });
  const place = async (body: Record<string, unknown> = {}) => (await serverRow(t, (await createServer(t, c, { location_id: loc, ...body })).id)).node_id;
  // big and twin have 16 GB free: twin has more vCPUs free.
  assert.equal(await place(), twin.id);
  // twin now has 15 GB free, big 16 GB.
  assert.equal(await place(), big.id);
  await setNodeStatus(t, big.id, 'draining');
  await setNodeStatus(t, twin.id, 'disabled');
  assert.equal(await place(), small.id, 'draining and disabled nodes take nothing new');
  // A machine bigger than any active node's free room: refused, nothing charged.
  const before = await balanceCents(t, c.accountId);
  assertError(await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc, plan_id: 4 }) }), 422, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceCents(t, c.accountId), before);
});

test('a location without nodes has no capacity', async () => {
  const loc = await newLocation(t, 'empty1', 62);
  const before = await balanceCents(t, c.accountId);
  assertError(await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) }), 422, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceCents(t, c.accountId), before);
  const ops = await t.database.db.selectFrom('servers').select('id').where('location_id', '=', loc).execute();
  assert.equal(ops.length, 0);
});

test('VDC VMs are placed on nodes too and count in their usage; the admin list shows it', async () => {
  const loc = await newLocation(t, 'vdc1', 63);
  const node = await addNode(t, { location_id: loc, name: 'vdc1-kvm1', cpu_vendor: 'amd', cpu_cores: 4, ram_mb: 4096, storage_gb: 100 });
  await setPool(t, c.accountId, BIG_POOL);
  const vm = await createVm(t, c, { location_id: loc, cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
  await createServer(t, c, { location_id: loc });
  const row = await t.database.db.selectFrom('vdc_vms').select('node_id').where('id', '=', vm.id).executeTakeFirstOrThrow();
  assert.equal(row.node_id, node.id);
  const listed = json(await adminCall(t, 'GET', `/admin/v1/nodes?location_id=${loc}`)).data;
  assert.equal(listed.length, 1);
  assert.deepEqual(listed[0].cpu, { total: 4, used: 3, available: 1 });
  assert.deepEqual(listed[0].ram_mb, { total: 4096, used: 3072, available: 1024 });
  assert.deepEqual([listed[0].servers, listed[0].vms], [1, 1]);
  // The rest does not fit a 2 GB VM.
  const res = await call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: { name: 'big.example.com', password: 'Str0ng!Passw0rd', cpu_cores: 1, ram_mb: 2048, storage_gb: 10, location_id: loc, os_version_id: 1 } });
  assertError(res, 422, 'CAPACITY_UNAVAILABLE');
});

test('growing in place needs room on the host: resize, upgrade and a VM resize on a full node are 422, nothing charged', async () => {
  const loc = await newLocation(t, 'grow1', 64);
  const node = await addNode(t, { location_id: loc, name: 'grow1-kvm1', cpu_vendor: 'intel', cpu_cores: 4, ram_mb: 3072, storage_gb: 200 });
  const server = await createServer(t, c, { location_id: loc });
  assert.equal((await waitForOperation(t, c.key, server.operation.id)).status, 'completed');
  await setPool(t, c.accountId, BIG_POOL);
  const vm = await createVm(t, c, { location_id: loc, cpu_cores: 1, ram_mb: 1024, storage_gb: 10 });
  assert.equal((await waitForOperation(t, c.key, vm.operation.id)).status, 'completed');
  const before = await balanceCents(t, c.accountId);
  // 1 GB of RAM left: 2 GB more does not fit, 1 GB does.
  assertError(await call(t.app, 'POST', `/v2/servers/${server.id}/actions/resize`, { key: c.key, body: { ram_gb: 3 } }), 422, 'CAPACITY_UNAVAILABLE');
  assertError(await call(t.app, 'POST', `/v2/servers/${server.id}/actions/upgrade`, { key: c.key, body: { package_id: 2 } }), 422, 'CAPACITY_UNAVAILABLE');
  assertError(await call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/actions/resize`, { key: c.key, body: { ram_mb: 3072 } }), 422, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceCents(t, c.accountId), before, 'nothing charged');
  assert.equal((await nodeRow(t, node.id)).used_ram_mb, 2048);
  const grow = await call(t.app, 'POST', `/v2/servers/${server.id}/actions/resize`, { key: c.key, body: { ram_gb: 2 } });
  assert.equal(grow.statusCode, 202, grow.body);
  assert.equal((await waitForOperation(t, c.key, json(grow).data.operation.id)).status, 'completed');
  assert.equal((await nodeRow(t, node.id)).used_ram_mb, 3072, 'the resized server holds its new size');
  await assertLedger(t, c.accountId);
});

test('the database itself refuses overfilling a node, and counters that do not come from what is placed', async () => {
  const loc = await newLocation(t, 'sql1', 65);
  const node = await addNode(t, { location_id: loc, name: 'sql1-kvm1', cpu_vendor: 'amd', ...fitting(1) });
  const row = (id: string) => ({
    id, account_id: c.accountId, name: `${id}.example.com`, location_id: loc, node_id: node.id, os_version_id: 1, plan_id: 1,
    cpu_cores: 1, ram_mb: 1024, storage_gb: 25, price_cents: 500, period_started_at: new Date(), next_billing_at: new Date(),
  });
  await t.database.db.insertInto('servers').values(row('srv_direct1')).execute();
  await assert.rejects(t.database.db.insertInto('servers').values(row('srv_direct2')).execute(), /node \d+ has no room/);
  await assert.rejects(t.database.db.updateTable('nodes').set({ used_cpu: 0 } as never).where('id', '=', node.id).execute(), /change only through the servers and VMs/);
  // Cancelling gives the room back, in the same statement.
  await t.database.db.updateTable('servers').set({ status: 'cancelled' }).where('id', '=', 'srv_direct1').execute();
  assert.equal((await nodeRow(t, node.id)).used_cpu, 0);
});
