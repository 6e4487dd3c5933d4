// VDC VMs are LXD instances too, and a node drain moves servers between LXD servers: live is
// refused by the platform (no CRIU), so the drain moves them cold.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LxdInstance } from '../../src/providers/compute/lxd/api-types.ts';
import type { LxdClient } from '../../src/providers/compute/lxd/client.ts';
import { type Customer, adminCall, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { lxd, lxdClient, lxdSkip } from '../helpers/lxd.ts';
import { type LxdApp, startLxdApp } from '../helpers/lxd-app.ts';
import { serverBody } from '../helpers/servers.ts';
import { BIG_POOL, setPool, vmBody } from '../helpers/vdc.ts';

describe('LXD: VDC VMs and drains', { skip: lxdSkip, timeout: 300_000 }, () => {
  let env: LxdApp;
  let c: Customer;
  let first: LxdClient;
  let second: LxdClient;

  before(async () => {
    env = await startLxdApp({ second: true });
    c = await createCustomer(env.t, { deposit: '500.00' });
    first = lxdClient(lxd!.first);
    second = lxdClient(lxd!.second);
  });
  after(() => {
    first?.close();
    second?.close();
  });

  const byId = async (client: LxdClient, id: string) => (await client.get<LxdInstance[]>('/1.0/instances', { query: { recursion: 1 } }))
    .filter((i) => i.config['user.hostcloud.id'] === id);

  test('a VDC VM: an instance with our id and its sizes; deleting the VM deletes it', async () => {
    await setPool(env.t, c.accountId, BIG_POOL);
    const res = await call(env.t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ location_id: env.locationId, ram_mb: 2048 }) });
    assert.equal(res.statusCode, 201, res.body);
    const vm = json(res).data;
    assert.equal((await waitForOperation(env.t, c.key, vm.operation.id, 120_000)).status, 'completed');
    const made = [...(await byId(first, vm.id)), ...(await byId(second, vm.id))];
    assert.equal(made.length, 1);
    assert.equal(made[0]!.status, 'Running');
    assert.equal(made[0]!.config['limits.memory'], '2048MiB');
    assert.equal(made[0]!.devices.eth0?.nictype, 'routed');
    const del = await call(env.t.app, 'DELETE', `/v2/vdc/vms/${vm.id}`, { key: c.key, query: { confirm_name: vm.name } });
    assert.ok(del.statusCode < 300, del.body);
    // The machine goes with the VM's delete operation.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const op = await env.t.database.db.selectFrom('operations').select('status').where('resource_id', '=', vm.id).where('type', '=', 'vdc_vm.delete').executeTakeFirst();
      if (op?.status === 'completed') break;
      assert.notEqual(op?.status, 'failed');
      assert.ok(Date.now() < deadline, 'the delete did not finish');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal([...(await byId(first, vm.id)), ...(await byId(second, vm.id))].length, 0);
  });

  test('draining the first node moves its server to the second LXD server, cold, and it runs there', async () => {
    await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${env.nodes.second}`, { status: 'disabled' });
    const res = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: env.locationId }) });
    assert.equal(res.statusCode, 201, res.body);
    const server = json(res).data;
    assert.equal((await waitForOperation(env.t, c.key, server.operation.id, 120_000)).status, 'completed');
    assert.equal((await byId(first, server.id)).length, 1);
    await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${env.nodes.second}`, { status: 'active' });
    const drain = await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${env.nodes.first}`, { status: 'draining' });
    assert.equal(drain.statusCode, 200, drain.body);
    const started = json(drain).data.drain.started as { id: string; operation_id: string; mode: string }[];
    const mine = started.find((s) => s.id === server.id)!;
    assert.equal(mine.mode, 'cold');
    assert.equal((await waitForOperation(env.t, c.key, mine.operation_id, 120_000)).status, 'completed');
    const moved = await byId(second, server.id);
    assert.equal(moved.length, 1);
    assert.equal(moved[0]!.status, 'Running');
    assert.equal((await byId(first, server.id)).length, 0);
  });
});
