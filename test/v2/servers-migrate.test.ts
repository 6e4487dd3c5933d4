// POST /v2/servers/{id}/actions/migrate (a v2 addition): live and cold moves between the hosts of a
// location, cold moves to another location with new addresses, the CPU-vendor rule, failures that
// leave the server where it was, other accounts' servers and the sandbox.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { nodeRow, nodeRows, setNodeStatus } from '../helpers/nodes.ts';
import { action, assertError, assertLedger, balanceCents, clearFault, serverRow, setFault } from '../helpers/server-actions.ts';
import { FRA, SINGAPORE, activeServer } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;
const AMS = 2;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
});

const simVm = (ref: string) => t.database.db.selectFrom('sim_vms').selectAll().where('id', '=', ref).executeTakeFirstOrThrow();
const detail = async (id: string) => json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data;

async function migrate(id: string, body: Record<string, unknown>, key = c.key) {
  const res = await action(t, key, id, 'migrate', body);
  assert.equal(res.statusCode, 202, res.body);
  return json(res).data.operation;
}

/** Nodes of the server's location other than its own, split by the CPU vendor of its own. */
async function around(serverId: string) {
  const s = await serverRow(t, serverId);
  const nodes = await nodeRows(t, s.location_id);
  const own = nodes.find((n) => n.id === s.node_id)!;
  return { s, own, same: nodes.filter((n) => n.id !== own.id && n.cpu_vendor === own.cpu_vendor), other: nodes.filter((n) => n.cpu_vendor !== own.cpu_vendor) };
}

describe('live', () => {
  test('moves a running server to a node of the same CPU vendor; it keeps running and its addresses', async () => {
    const server = await activeServer(t, c);
    const { s, own, same } = await around(server.id);
    const [sourceBefore, targetBefore] = [await nodeRow(t, own.id), await nodeRow(t, same[0]!.id)];
    const balance = await balanceCents(t, c.accountId);
    const op = await migrate(server.id, {});
    assert.equal(op.type, 'server.migrate');
    // Held on both nodes while it moves.
    const moving = await serverRow(t, server.id);
    assert.equal(moving.migration_node_id, same[0]!.id);
    assert.equal((await nodeRow(t, same[0]!.id)).used_ram_mb, targetBefore.used_ram_mb + s.ram_mb);
    const done = await waitForOperation(t, c.key, op.id);
    assert.equal(done.status, 'completed', done.detail);
    assert.match(done.detail, /live migration/);
    const after = await serverRow(t, server.id);
    assert.equal(after.node_id, same[0]!.id);
    assert.equal(after.migration_node_id, null);
    assert.equal(after.power_state, 'running');
    assert.deepEqual(after.network, s.network, 'same location, same addresses');
    const vm = await simVm(s.provider_ref!);
    assert.equal(vm.node, same[0]!.name);
    assert.equal(vm.power, 'running');
    assert.equal((await t.database.db.selectFrom('sim_vms').select('id').where('request_token', '=', vm.request_token).execute()).length, 1);
    assert.equal((await nodeRow(t, own.id)).used_ram_mb, sourceBefore.used_ram_mb - s.ram_mb);
    assert.equal((await nodeRow(t, same[0]!.id)).used_ram_mb, targetBefore.used_ram_mb + s.ram_mb);
    assert.equal(await balanceCents(t, c.accountId), balance, 'a migration costs nothing');
    const view = await detail(server.id);
    assert.equal(view.power_state, 'running');
  });

  test('across CPU vendors: 422 NODE_INCOMPATIBLE_LIVE_MIGRATE, nothing changed, and cold still works', async () => {
    const server = await activeServer(t, c);
    const { s, own, same } = await around(server.id);
    for (const n of same) await setNodeStatus(t, n.id, 'disabled');
    try {
      const usage = await nodeRows(t, s.location_id);
      assertError(await action(t, c.key, server.id, 'migrate', { mode: 'live' }), 422, 'NODE_INCOMPATIBLE_LIVE_MIGRATE', 'mode');
      assertError(await action(t, c.key, server.id, 'migrate'), 422, 'NODE_INCOMPATIBLE_LIVE_MIGRATE');
      const after = await serverRow(t, server.id);
      assert.equal(after.node_id, own.id);
      assert.equal(after.migration_node_id, null);
      assert.equal(after.power_state, 'running');
      assert.deepEqual(await nodeRows(t, s.location_id), usage, 'no node\'s usage moved');
      const ops = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', server.id).where('type', '=', 'server.migrate').execute();
      assert.equal(ops.length, 0, 'no operation was started');
      const op = await migrate(server.id, { mode: 'cold' });
      assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
      const moved = await serverRow(t, server.id);
      assert.notEqual((await nodeRow(t, moved.node_id!)).cpu_vendor, own.cpu_vendor);
    } finally {
      for (const n of same) await setNodeStatus(t, n.id, 'active');
    }
  });
});

describe('cold', () => {
  test('a running server is stopped, moved and started: running afterwards', async () => {
    const server = await activeServer(t, c);
    const { own } = await around(server.id);
    const op = await migrate(server.id, { mode: 'cold' });
    assert.equal((await detail(server.id)).power_state, 'migrating');
    const done = await waitForOperation(t, c.key, op.id);
    assert.equal(done.status, 'completed', done.detail);
    assert.match(done.detail, /cold migration/);
    const after = await serverRow(t, server.id);
    assert.notEqual(after.node_id, own.id);
    assert.equal(after.power_state, 'running');
    assert.equal((await simVm(after.provider_ref!)).power, 'running');
  });

  test('a stopped server stays stopped', async () => {
    const server = await activeServer(t, c);
    const stop = json(await action(t, c.key, server.id, 'stop')).data.operation;
    assert.equal((await waitForOperation(t, c.key, stop.id)).status, 'completed');
    const op = await migrate(server.id, { mode: 'cold' });
    assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
    const after = await serverRow(t, server.id);
    assert.equal(after.power_state, 'stopped');
    assert.equal((await simVm(after.provider_ref!)).power, 'stopped');
  });

  test('to another location: cold, new addresses there, the old ones released, the extra address follows', async () => {
    const server = await activeServer(t, c, { ipv4_count: 2 });
    const before = await serverRow(t, server.id);
    const oldIps = (await t.database.db.selectFrom('server_ips').select('address').where('server_id', '=', server.id).execute()).map((r) => r.address);
    assertError(await action(t, c.key, server.id, 'migrate', { mode: 'live', location_id: AMS }), 422, 'VALIDATION_FAILED', 'mode');
    assertError(await action(t, c.key, server.id, 'migrate', { location_id: SINGAPORE }), 422, 'LOCATION_INVALID', 'location_id');
    assertError(await action(t, c.key, server.id, 'migrate', { location_id: 999 }), 422, 'LOCATION_INVALID', 'location_id');
    const price = (await detail(server.id)).billing.amount;
    const op = await migrate(server.id, { location_id: AMS });
    const done = await waitForOperation(t, c.key, op.id);
    assert.equal(done.status, 'completed', done.detail);
    assert.match(done.detail, /new addresses in location 2/);
    const after = await serverRow(t, server.id);
    assert.equal(after.location_id, AMS);
    assert.equal((await nodeRow(t, after.node_id!)).location_id, AMS);
    assert.equal(after.power_state, 'running');
    assert.match(after.network!.ipv4!.address, /^10\.2\.0\./);
    assert.notEqual(after.network!.ipv4!.address, before.network!.ipv4!.address);
    const newIps = await t.database.db.selectFrom('server_ips').select(['address', 'price_cents']).where('server_id', '=', server.id).execute();
    assert.equal(newIps.length, 1);
    assert.match(newIps[0]!.address!, /^10\.2\.0\./);
    assert.notEqual(newIps[0]!.address, oldIps[0]);
    const oldLeases = await t.database.db.selectFrom('ip_addresses').select(['address', 'vm_id'])
      .where('address', 'in', [before.network!.ipv4!.address, oldIps[0]!]).execute();
    assert.ok(oldLeases.every((l) => l.vm_id === null), 'the old addresses went back to Frankfurt\'s pool');
    const view = await detail(server.id);
    assert.equal(view.billing.amount, price, 'the price is unchanged');
    await assertLedger(t, c.accountId);
  });
});

describe('failures', () => {
  test('a live migration the platform fails leaves the server on its source, running, with a readable detail', async () => {
    const server = await activeServer(t, c);
    const { own } = await around(server.id);
    await setFault(t, { mode: 'capacity_unavailable', calls: ['migrate'], remaining: 1 });
    try {
      const op = await migrate(server.id, {});
      const done = await waitForOperation(t, c.key, op.id);
      assert.equal(done.status, 'failed');
      assert.match(done.detail, /capacity shortage \(migrate\)/);
    } finally {
      await clearFault(t);
    }
    const after = await serverRow(t, server.id);
    assert.equal(after.node_id, own.id);
    assert.equal(after.migration_node_id, null);
    assert.equal(after.power_state, 'running');
    assert.equal((await simVm(after.provider_ref!)).node, own.name);
    const used = await t.database.db.selectFrom('servers').select((eb) => eb.fn.sum<string>('ram_mb').as('ram'))
      .where('node_id', '=', own.id).where('deleted_at', 'is', null).where('status', '<>', 'cancelled').executeTakeFirstOrThrow();
    assert.equal((await nodeRow(t, own.id)).used_ram_mb, Number(used.ram), 'the target\'s hold was given back');
  });

  test('a cold migration that fails after the stop: back on the source and started again', async () => {
    const server = await activeServer(t, c);
    const { own } = await around(server.id);
    await setFault(t, { mode: 'capacity_unavailable', calls: ['migrate'], remaining: 1 });
    try {
      const op = await migrate(server.id, { mode: 'cold' });
      const done = await waitForOperation(t, c.key, op.id);
      assert.equal(done.status, 'failed');
      assert.match(done.detail, /No capacity: Simulated capacity shortage \(migrate\)/);
    } finally {
      await clearFault(t);
    }
    const after = await serverRow(t, server.id);
    assert.equal(after.node_id, own.id);
    assert.equal(after.power_state, 'running');
    // The restart is the failure's clean-up, after the operation is marked failed.
    const deadline = Date.now() + 10_000;
    while ((await simVm(after.provider_ref!)).power !== 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const vm = await simVm(after.provider_ref!);
    assert.equal(vm.power, 'running');
    assert.equal(vm.node, own.name);
  });
});

describe('rules', () => {
  test('another account\'s server is 404; a busy server is 409; fields of other verbs are refused', async () => {
    const server = await activeServer(t, c);
    const other = await createCustomer(t, { deposit: '10.00' });
    assertError(await action(t, other.key, server.id, 'migrate', {}), 404, 'RESOURCE_NOT_FOUND');
    assertError(await action(t, c.key, 'srv_doesnotexist', 'migrate', {}), 404, 'RESOURCE_NOT_FOUND');
    assertError(await action(t, c.key, server.id, 'migrate', { hostname: 'x.example.com' }), 422, 'VALIDATION_FAILED');
    assertError(await action(t, c.key, server.id, 'migrate', { mode: 'warp' }), 422, 'VALIDATION_FAILED');
    const op = await migrate(server.id, {});
    assertError(await action(t, c.key, server.id, 'migrate', {}), 409, 'STATE_CONFLICT');
    assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
  });

  test('sandbox: validated, 202, nothing moves', async () => {
    const server = await activeServer(t, c);
    const before = await serverRow(t, server.id);
    const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', is_test: true, ip_allowlist: ['127.0.0.1', '::1'] })).data.key;
    assertError(await action(t, testKey, server.id, 'migrate', { mode: 'live', location_id: AMS }), 422, 'VALIDATION_FAILED', 'mode');
    const res = await action(t, testKey, server.id, 'migrate', { location_id: AMS });
    assert.equal(res.statusCode, 202, res.body);
    assert.match(json(res).data.operation.id, /^op_sandbox_/);
    const after = await serverRow(t, server.id);
    assert.deepEqual({ ...after, updated_at: null }, { ...before, updated_at: null });
    const nodes = await nodeRows(t, FRA);
    assert.ok(nodes.every((n) => n.status === 'active'));
  });
});
