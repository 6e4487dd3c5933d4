// The operator's nodes: list with usage, add, set status, drain (every server moved away, live
// where a node of the same vendor has room, cold otherwise), and migrating any account's server.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { CLOUD_S_SIZE, addNode, newLocation, nodeRow, setNodeStatus } from '../helpers/nodes.ts';
import { assertError, serverRow } from '../helpers/server-actions.ts';
import { FRA, activeServer } from '../helpers/servers.ts';
import { BIG_POOL, activeVm, setPool } from '../helpers/vdc.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
});

const fitting = (n: number) => ({ cpu_cores: n * CLOUD_S_SIZE.cpu_cores, ram_mb: n * CLOUD_S_SIZE.ram_mb, storage_gb: n * CLOUD_S_SIZE.storage_gb });

test('every node route needs the admin token; nodes never appear in the customer API', async () => {
  for (const [method, url] of [['GET', '/admin/v1/nodes'], ['POST', '/admin/v1/nodes'], ['PATCH', '/admin/v1/nodes/1'], ['POST', '/admin/v1/servers/srv_x/migrate']] as const) {
    assertError(await call(t.app, method, url, { body: {} }), 401, 'AUTH_REQUIRED');
  }
  const server = await activeServer(t, c);
  const view = json(await call(t.app, 'GET', `/v2/servers/${server.id}`, { key: c.key })).data;
  assert.ok(!JSON.stringify(view).includes('node') && !JSON.stringify(view).includes('kvm'), JSON.stringify(view));
});

test('the demo seed: each primary location has two nodes of one vendor and one of the other', async () => {
  const nodes = json(await adminCall(t, 'GET', '/admin/v1/nodes')).data as { location_id: number; cpu_vendor: string; status: string }[];
  for (const loc of [1, 2, 3]) {
    const here = nodes.filter((n) => n.location_id === loc);
    const vendors = here.map((n) => n.cpu_vendor).sort();
    assert.equal(here.length, 3);
    assert.ok(vendors.join() === 'amd,amd,intel' || vendors.join() === 'amd,intel,intel', vendors.join());
  }
  const fra = json(await adminCall(t, 'GET', `/admin/v1/nodes?location_id=${FRA}`)).data;
  assert.ok(fra.length === 3 && fra.every((n: { location_id: number }) => n.location_id === FRA));
});

test('add: validated, a duplicate name is 409, an unknown location 422; status: set and read back, 404 for no node', async () => {
  const body = { location_id: FRA, name: 'fra1-kvm9', cpu_vendor: 'amd', cpu_cores: 32, ram_mb: 131072, storage_gb: 2000 };
  const node = await addNode(t, body);
  assert.deepEqual([node.name, node.status, node.cpu, node.servers, node.vms], ['fra1-kvm9', 'active', { total: 32, used: 0, available: 32 }, 0, 0]);
  assertError(await adminCall(t, 'POST', '/admin/v1/nodes', body), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'POST', '/admin/v1/nodes', { ...body, name: 'other-1', location_id: 999 }), 422, 'LOCATION_INVALID');
  assertError(await adminCall(t, 'POST', '/admin/v1/nodes', { ...body, name: 'Not A Host!' }), 422, 'VALIDATION_FAILED');
  assertError(await adminCall(t, 'POST', '/admin/v1/nodes', { ...body, name: 'x-2', cpu_vendor: 'arm' }), 422, 'VALIDATION_FAILED');
  const disabled = await setNodeStatus(t, node.id, 'disabled');
  assert.equal(disabled.node.status, 'disabled');
  assert.equal(disabled.drain, null);
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/nodes/${node.id}`)).data.status, 'disabled');
  assertError(await adminCall(t, 'PATCH', '/admin/v1/nodes/99999', { status: 'active' }), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'GET', '/admin/v1/nodes/99999'), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'PATCH', `/admin/v1/nodes/${node.id}`, { status: 'gone' }), 422, 'VALIDATION_FAILED');
});

test('draining a node with 10 servers and 2 VMs moves them all: live to the same vendor while it has room, cold to the other', async () => {
  const loc = await newLocation(t, 'drain1', 70);
  const source = await addNode(t, { location_id: loc, name: 'drain1-kvm1', cpu_vendor: 'intel', ...fitting(12) });
  const servers = [];
  for (let i = 0; i < 10; i++) servers.push(await activeServer(t, c, { location_id: loc }));
  const stopped = json(await call(t.app, 'POST', `/v2/servers/${servers[9].id}/actions/stop`, { key: c.key })).data.operation;
  assert.equal((await waitForOperation(t, c.key, stopped.id)).status, 'completed');
  await setPool(t, c.accountId, BIG_POOL);
  const vms = [];
  for (let i = 0; i < 2; i++) vms.push(await activeVm(t, c, { location_id: loc, cpu_cores: 1, ram_mb: 1024, storage_gb: 25 }));
  // Added after everything was placed, so it all sits on the source: 12 machines, room for 6 + 6.
  const intel = await addNode(t, { location_id: loc, name: 'drain1-kvm2', cpu_vendor: 'intel', ...fitting(6) });
  const amd = await addNode(t, { location_id: loc, name: 'drain1-kvm3', cpu_vendor: 'amd', ...fitting(6) });
  assert.equal((await nodeRow(t, source.id)).used_cpu, 12);

  const { node, drain } = await setNodeStatus(t, source.id, 'draining');
  assert.equal(node.status, 'draining');
  assert.deepEqual(drain.skipped, []);
  assert.equal(drain.started.length, 12);
  assert.equal(drain.started.filter((s: { type: string }) => s.type === 'server').length, 10);
  assert.equal(drain.started.filter((s: { type: string }) => s.type === 'vdc_vm').length, 2);
  assert.equal(drain.started.filter((s: { mode: string }) => s.mode === 'live').length, 6, 'live while the intel node has room');
  assert.equal(drain.started.filter((s: { mode: string }) => s.mode === 'cold').length, 6);
  // The drain's progress (the worker may have finished some already): every machine still there is on its way.
  assert.equal(node.migrating_away, node.servers);
  assert.equal(node.vms_migrating_away, node.vms);

  for (const s of drain.started) assert.equal((await waitForOperation(t, c.key, s.operation_id)).status, 'completed');
  const after = json(await adminCall(t, 'GET', `/admin/v1/nodes/${source.id}`)).data;
  assert.deepEqual([after.servers, after.vms, after.migrating_away, after.cpu.used, after.ram_mb.used], [0, 0, 0, 0, 0]);
  const rows = await Promise.all(servers.map((s) => serverRow(t, s.id)));
  assert.deepEqual(rows.map((r) => r.status), Array(10).fill('active'), 'none lost');
  assert.deepEqual(rows.map((r) => r.power_state), [...Array(9).fill('running'), 'stopped'], 'each as it was');
  const vmRows = await t.database.db.selectFrom('vdc_vms').selectAll().where('id', 'in', vms.map((v) => v.id)).execute();
  assert.ok(vmRows.every((v) => v.status === 'active' && v.power_state === 'running' && v.node_id !== source.id && v.migration_node_id === null));
  const machines = await t.database.db.selectFrom('sim_vms').select(['id', 'node'])
    .where('id', 'in', [...rows.map((r) => r.provider_ref!), ...vmRows.map((v) => v.provider_ref!)]).execute();
  assert.equal(machines.length, 12, 'one machine each');
  assert.ok(machines.every((v) => v.node === 'drain1-kvm2' || v.node === 'drain1-kvm3'));
  assert.equal((await nodeRow(t, intel.id)).used_cpu, 6);
  assert.equal((await nodeRow(t, amd.id)).used_cpu, 6);
  // A second drain has nothing left to move.
  assert.deepEqual((await setNodeStatus(t, source.id, 'draining')).drain, { started: [], skipped: [] });
});

test('POST /admin/v1/servers/{id}/migrate: to a named node, the vendor rule, 404 and 409', async () => {
  const server = await activeServer(t, c);
  const row = await serverRow(t, server.id);
  const nodes = await t.database.db.selectFrom('nodes').selectAll().where('location_id', '=', FRA).where('status', '=', 'active').orderBy('id').execute();
  const own = nodes.find((n) => n.id === row.node_id)!;
  const other = nodes.find((n) => n.cpu_vendor !== own.cpu_vendor)!;
  const same = nodes.find((n) => n.cpu_vendor === own.cpu_vendor && n.id !== own.id)!;
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${server.id}/migrate`, { node_id: other.id, mode: 'live' }), 422, 'NODE_INCOMPATIBLE_LIVE_MIGRATE');
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${server.id}/migrate`, { node_id: own.id }), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${server.id}/migrate`, { node_id: 99999 }), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'POST', '/admin/v1/servers/srv_nothing/migrate', {}), 404, 'RESOURCE_NOT_FOUND');
  // Members are an LXD cluster's (test/providers/lxd-cluster.test.ts): the simulated platform's nodes have none.
  const member = await adminCall(t, 'POST', `/admin/v1/servers/${server.id}/migrate`, { member: 'lxd-b' });
  assertError(member, 422, 'VALIDATION_FAILED');
  assert.equal(json(member).error.errors[0].field, 'member');
  assert.match(json(member).error.errors[0].message, /only LXD clusters/);
  assertError(await adminCall(t, 'POST', `/admin/v1/servers/${server.id}/migrate`, { member: '' }), 422, 'VALIDATION_FAILED');
  assert.equal((await serverRow(t, server.id)).node_id, own.id, 'nothing changed');
  const res = await adminCall(t, 'POST', `/admin/v1/servers/${server.id}/migrate`, { node_id: same?.id ?? other.id, mode: same ? 'live' : 'cold' });
  assert.equal(res.statusCode, 202, res.body);
  const op = json(res).data.operation;
  assert.equal(op.type, 'server.migrate');
  assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
  assert.equal((await serverRow(t, server.id)).node_id, (same ?? other).id);
});

test('a drain with nowhere to go leaves the server, says why, and a second drain moves it once there is room', async () => {
  const loc = await newLocation(t, 'drain2', 71);
  const only = await addNode(t, { location_id: loc, name: 'drain2-kvm1', cpu_vendor: 'amd', ...fitting(2) });
  const server = await activeServer(t, c, { location_id: loc });
  const first = await setNodeStatus(t, only.id, 'draining');
  assert.deepEqual(first.drain.started, []);
  assert.equal(first.drain.skipped.length, 1);
  assert.equal(first.drain.skipped[0].id, server.id);
  assert.match(first.drain.skipped[0].reason, /^CAPACITY_UNAVAILABLE: No node in location \d+ has room/);
  assert.equal((await serverRow(t, server.id)).node_id, only.id, 'still where it was, running');
  assert.equal((await serverRow(t, server.id)).power_state, 'running');
  const other = await addNode(t, { location_id: loc, name: 'drain2-kvm2', cpu_vendor: 'amd', ...fitting(2) });
  const second = await setNodeStatus(t, only.id, 'draining');
  assert.deepEqual(second.drain.started.map((s: { id: string; mode: string }) => [s.id, s.mode]), [[server.id, 'live']]);
  assert.equal((await waitForOperation(t, c.key, second.drain.started[0].operation_id)).status, 'completed');
  assert.equal((await serverRow(t, server.id)).node_id, other.id);
});
