// VDC VMs are LXD instances too, and a node drain moves servers between LXD servers: live is
// refused by the platform (no CRIU), so the drain moves them cold.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LxdInstance, LxdInstanceState } from '../../src/providers/compute/lxd/api-types.ts';
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

  test('a VDC VM: an instance with our id, its sizes, its user_data and the addresses its create took on eth0; deleting the VM deletes it', async () => {
    await setPool(env.t, c.accountId, BIG_POOL);
    const res = await call(env.t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ location_id: env.locationId, ram_mb: 2048, user_data: '#cloud-config\nhostname: vdc-lxd\n' }) });
    assert.equal(res.statusCode, 201, res.body);
    const vm = json(res).data;
    // Reserved with the create (its committed write), under the operation's token: what the instance gets.
    const reserved = await env.t.database.db.selectFrom('sim_vms as m').innerJoin('ip_addresses as l', 'l.vm_id', 'm.id')
      .select(['m.id', 'l.address']).where('m.request_token', '=', vm.operation.id).execute();
    assert.equal(reserved.length, 2, 'one IPv4 and one IPv6 address');
    assert.equal((await waitForOperation(env.t, c.key, vm.operation.id, 120_000)).status, 'completed');
    const made = [...(await byId(first, vm.id)), ...(await byId(second, vm.id))];
    assert.equal(made.length, 1);
    const inst = made[0]!;
    assert.equal(inst.name, reserved[0]!.id);
    assert.equal(inst.status, 'Running');
    assert.equal(inst.config['user.hostcloud.token'], vm.operation.id);
    assert.equal(inst.config['limits.memory'], '2048MiB');
    assert.equal(inst.config['cloud-init.user-data'], '#cloud-config\nhostname: vdc-lxd\n');
    assert.equal(inst.devices.eth0?.nictype, 'routed');
    const live = json(await call(env.t.app, 'GET', `/v2/vdc/vms/${vm.id}`, { key: c.key })).data;
    assert.ok(live.primary_ip?.startsWith(env.v4Prefix), JSON.stringify(live));
    assert.ok(live.primary_ipv6?.startsWith(env.v6Prefix), JSON.stringify(live));
    assert.deepEqual([live.primary_ip, live.primary_ipv6].sort(), reserved.map((r) => r.address).sort());
    assert.deepEqual(inst.devices.eth0?.['ipv4.address']?.split(','), [live.primary_ip]);
    assert.deepEqual(inst.devices.eth0?.['ipv6.address']?.split(','), [live.primary_ipv6]);
    const client = (await byId(first, vm.id)).length > 0 ? first : second;
    const st = await client.get<LxdInstanceState>(`/1.0/instances/${inst.name}/state`);
    const inside = st.network?.eth0?.addresses.map((a) => a.address) ?? [];
    assert.ok(inside.includes(live.primary_ip) && inside.includes(live.primary_ipv6), `eth0 holds ${inside.join(', ')}`);
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
    // Its addresses are back, resting.
    const leases = await env.t.database.db.selectFrom('ip_addresses').select(['vm_id', 'released_at'])
      .where('address', 'in', [live.primary_ip, live.primary_ipv6]).execute();
    assert.equal(leases.length, 2);
    for (const l of leases) assert.ok(l.vm_id === null && l.released_at !== null, JSON.stringify(l));
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
