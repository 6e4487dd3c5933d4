// An LXD cluster as one node: two LXD daemons joined as a cluster on this machine (127.0.0.2 and
// 127.0.0.3, formed by scripts/lxd-setup.sh) are added to Hostcloud as a single node by the
// cluster's address. LXD places each create on a member; every action and the delete reach the
// instance wherever it is (the cluster forwards the call to its member); the operator moves a
// server between members with the cluster's own move (`member`), and out of the cluster to
// another node with the migration API. Each step is checked on the LXD side, member included.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { type Customer, adminCall, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { lxd, lxdClient, lxdSkip } from '../helpers/lxd.ts';
import { type LxdApp, startLxdApp } from '../helpers/lxd-app.ts';
import { serverBody } from '../helpers/servers.ts';
import type { LxdClient } from '../../src/providers/compute/lxd/client.ts';
import { exec } from '../../src/providers/compute/lxd/instance.ts';
import type { LxdInstance, LxdInstanceState } from '../../src/providers/compute/lxd/api-types.ts';

// CI (LXD_TESTS=required) runs lxd-setup.sh, which forms the cluster: a setup without one is a failure there.
if (lxd && !lxd.cluster && process.env.LXD_TESTS === 'required') {
  throw new Error('LXD_TESTS=required but the LXD test setup has no cluster (run scripts/lxd-setup.sh)');
}
const skip = lxdSkip || (lxd?.cluster ? false : 'no LXD cluster in the test setup (run scripts/lxd-setup.sh)');

interface Placed {
  id: string;
  ref: string;
  ipv4: string;
}

describe('LXD cluster as one node', { skip, timeout: 900_000 }, () => {
  let env: LxdApp;
  let c: Customer;
  /** The cluster, through its first member's socket: sees every member's instances. */
  let cluster: LxdClient;
  let first: LxdClient;
  /** A server on each member, by member name. */
  const onMember = new Map<string, Placed>();

  before(async () => {
    env = await startLxdApp({ cluster: true });
    // Only the cluster takes this location's servers (the stand-alone node comes back for the last move).
    const off = await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${env.nodes.first}`, { status: 'disabled' });
    assert.equal(off.statusCode, 200, off.body);
    c = await createCustomer(env.t, { deposit: '500.00' });
    cluster = lxdClient(lxd!.cluster!.socket);
    first = lxdClient(lxd!.first);
  });
  after(() => {
    cluster?.close();
    first?.close();
  });

  const instance = (client: LxdClient, name: string) => client.get<LxdInstance>(`/1.0/instances/${name}`);
  const state = (client: LxdClient, name: string) => client.get<LxdInstanceState>(`/1.0/instances/${name}/state`);
  const shadowRoot = async (name: string) => (await cluster.readFile(name, '/etc/shadow'))!.toString().split('\n').find((l) => l.startsWith('root:'))!;
  const finish = async (res: Awaited<ReturnType<typeof call>>, what: string) => {
    assert.equal(res.statusCode, 202, `${what}: ${res.body}`);
    const op = await waitForOperation(env.t, c.key, json(res).data.operation.id, 180_000);
    assert.equal(op.status, 'completed', `${what}: ${op.detail}`);
    return op;
  };
  const run = (s: Placed, verb: string, body?: unknown) =>
    call(env.t.app, 'POST', `/v2/servers/${s.id}/actions/${verb}`, { key: c.key, ...(body ? { body } : {}) }).then((r) => finish(r, verb));
  /** The newest operation of a type on a resource once finished (those the API answers without one). */
  const lastOperation = async (resourceId: string, type: string) => {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const op = await env.t.database.db.selectFrom('operations').select(['id', 'status', 'detail'])
        .where('type', '=', type).where('resource_id', '=', resourceId).orderBy('created_at', 'desc').executeTakeFirst();
      if (op && (op.status === 'completed' || op.status === 'failed')) return op;
      if (Date.now() > deadline) throw new Error(`no finished ${type} operation on ${resourceId}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const serverRow = (id: string) => env.t.database.db.selectFrom('servers').select(['provider_ref', 'node_id', 'status', 'power_state']).where('id', '=', id).executeTakeFirstOrThrow();
  const adminMigrate = (s: Placed, body: Record<string, unknown>) => adminCall(env.t, 'POST', `/admin/v1/servers/${s.id}/migrate`, body);
  /**
   * The routed NIC works on the instance's member: its address is on eth0 inside, and the host
   * answers a ping from it (LXD's nftables reverse-path rule lets the address out, the member's
   * host route brings the answer back).
   */
  const assertAddressInside = async (s: Placed) => {
    const inside = (await state(cluster, s.ref)).network?.eth0?.addresses.map((a) => a.address) ?? [];
    assert.ok(inside.includes(s.ipv4), `eth0 of ${s.ref} holds ${inside.join(', ')}, not ${s.ipv4}`);
    await exec(cluster, s.ref, ['ping', '-c', '1', '-W', '10', '-I', s.ipv4, '169.254.0.1']);
  };

  test('the cluster is one node: added by its address, the cluster certificate pinned, its sizes the sum of its members\'', async () => {
    const node = json(await adminCall(env.t, 'GET', `/admin/v1/nodes/${env.nodes.cluster}`)).data;
    assert.equal(node.endpoint, lxd!.cluster!.endpoint);
    assert.equal(node.fingerprint, lxd!.cluster!.fingerprint);
    let cpus = 0;
    for (const member of lxd!.cluster!.members) {
      cpus += (await cluster.get<{ cpu: { total: number } }>('/1.0/resources', { global: true, query: { target: member } })).cpu.total;
    }
    assert.equal(lxd!.cluster!.members.length, 2);
    assert.equal(node.cpu.total, cpus, 'every member\'s CPUs');
    // The list's probe asks the cluster only whether it answers and trusts us (not every member's sizes).
    const listed = (json(await adminCall(env.t, 'GET', `/admin/v1/nodes?location_id=${env.locationId}`)).data as { id: number; connection: string }[])
      .find((n) => n.id === env.nodes.cluster)!;
    assert.equal(listed.connection, 'ok');
  });

  test('creates land on both members (LXD\'s placement), each running with its address on its routed NIC', async () => {
    // LXD places a create on the member with the fewest instances: two creates fill both members,
    // unless an instance of another project tips the count; a few more then reach the other one.
    for (let i = 0; i < 4 && onMember.size < 2; i++) {
      const res = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: env.locationId, name: `cl${i}.example.com` }) });
      assert.equal(res.statusCode, 201, res.body);
      const created = json(res).data;
      const op = await waitForOperation(env.t, c.key, created.operation.id, 180_000);
      assert.equal(op.status, 'completed', op.detail);
      const row = await serverRow(created.id);
      assert.equal(row.node_id, env.nodes.cluster);
      const d = json(await call(env.t.app, 'GET', `/v2/servers/${created.id}`, { key: c.key })).data;
      const s = { id: created.id as string, ref: row.provider_ref!, ipv4: d.network.ipv4.address as string };
      const inst = await instance(cluster, s.ref);
      assert.equal(inst.status, 'Running');
      assert.equal(inst.config['user.hostcloud.id'], s.id);
      assert.ok(lxd!.cluster!.members.includes(inst.location!), inst.location);
      await assertAddressInside(s);
      process.stdout.write(`# create ${i + 1} placed on ${inst.location}\n`);
      if (!onMember.has(inst.location!)) onMember.set(inst.location!, s);
    }
    assert.deepEqual([...onMember.keys()].sort(), [...lxd!.cluster!.members].sort(), 'a server on each member');
  });

  test('actions reach the instance on either member: power, password, resize, snapshots, reinstall', async () => {
    for (const [member, s] of onMember) {
      await run(s, 'stop');
      assert.equal((await state(cluster, s.ref)).status, 'Stopped', member);
      await run(s, 'start');
      await run(s, 'reboot');
      assert.equal((await state(cluster, s.ref)).status, 'Running', member);
      const before = await shadowRoot(s.ref);
      await run(s, 'reset_password', { password: 'An0ther!Passw0rd' });
      assert.notEqual(await shadowRoot(s.ref), before, member);
      await run(s, 'resize', { ram_gb: 2, disk_gb: 30 });
      const resized = await instance(cluster, s.ref);
      assert.equal(resized.config['limits.memory'], '2048MiB', member);
      assert.equal(resized.devices.root?.size, '30GiB', member);

      const snapRes = await call(env.t.app, 'POST', `/v2/servers/${s.id}/snapshots`, { key: c.key, body: { name: 'before' } });
      assert.equal(snapRes.statusCode, 201, snapRes.body);
      const snap = json(snapRes).data;
      assert.equal((await waitForOperation(env.t, c.key, snap.operation?.id ?? snap.operation_id, 180_000)).status, 'completed');
      assert.equal((await cluster.get<string[]>(`/1.0/instances/${s.ref}/snapshots`)).length, 1, member);
      const snapId = snap.id ?? snap.snapshot?.id;
      await finish(await call(env.t.app, 'POST', `/v2/servers/${s.id}/snapshots/${snapId}/restore`, { key: c.key }), 'restore');
      assert.equal((await state(cluster, s.ref)).status, 'Running', member);
      const del = await call(env.t.app, 'DELETE', `/v2/servers/${s.id}/snapshots/${snapId}`, { key: c.key });
      assert.ok(del.statusCode < 300, del.body);
      const delOp = json(del).data?.operation?.id;
      if (delOp) await waitForOperation(env.t, c.key, delOp, 120_000);
      assert.deepEqual(await cluster.get<string[]>(`/1.0/instances/${s.ref}/snapshots`), [], member);

      const password = await shadowRoot(s.ref);
      await run(s, 'reinstall');
      const again = await instance(cluster, s.ref);
      assert.equal(again.status, 'Running', member);
      assert.equal(again.location, member, 'rebuilt on the member it was on');
      assert.equal(await shadowRoot(s.ref), password, 'root keeps its password');
      await assertAddressInside(s);
    }
  });

  test('console: attaches to the instance on the member the node\'s address is not', async () => {
    const [, s] = [...onMember].find(([member]) => member !== lxd!.cluster!.members[0])!;
    await env.t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(env.t.app.server.address() as { port: number }).port}`;
    const res = await call(env.t.app, 'GET', `/v2/servers/${s.id}/console`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const u = new URL(json(res).data.viewer_url);
    const page = await call(env.t.app, 'GET', `${u.pathname}${u.search}`, { headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200, page.body);
    const socket = /data-socket="([^"]+)"/.exec(page.body)![1]!.replaceAll('&#38;', '&');
    const ws = new WebSocket(`${origin.replace('http:', 'ws:')}${socket}`);
    await once(ws, 'open');
    let text = '';
    const answered = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        text += data.toString('utf8');
        if (/^42\r?$/m.test(text)) resolve();
      });
    });
    ws.send(Buffer.from('\recho $((6*7))\r'), { binary: true });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([answered, new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no 42 from the console within 30 s; it sent ${JSON.stringify(text)}`)), 30_000);
    })]).finally(() => clearTimeout(timer));
    ws.close();
    await once(ws, 'close');
  });

  test('migrate with `member`: the cluster\'s own move to the other member, node and addresses kept', async () => {
    const [from, s] = [...onMember][0]!;
    const to = lxd!.cluster!.members.find((m) => m !== from)!;
    // Refused before anything is queued: another node named with a member, another location, a live move.
    const otherNode = await adminMigrate(s, { member: to, node_id: env.nodes.first });
    assert.equal(otherNode.statusCode, 422, otherNode.body);
    assert.equal(json(otherNode).error.errors[0].field, 'member');
    const otherLocation = await adminMigrate(s, { member: to, location_id: env.locationId + 1000 });
    assert.equal(otherLocation.statusCode, 422, otherLocation.body);
    const live = await adminMigrate(s, { member: to, mode: 'live' });
    assert.equal(live.statusCode, 422, live.body);
    assert.equal(json(live).error.code, 'NODE_INCOMPATIBLE_LIVE_MIGRATE');
    const bad = await adminMigrate(s, { member: 'no such/member' });
    assert.equal(bad.statusCode, 422, bad.body);

    const started = Date.now();
    const op = await finish(await adminMigrate(s, { member: to }), 'migrate to member');
    process.stdout.write(`# cluster move ${from} → ${to}: ${Date.now() - started} ms\n`);
    assert.match(op.detail ?? '', new RegExp(`member ${to}`));
    const moved = await instance(cluster, s.ref);
    assert.equal(moved.location, to);
    assert.equal(moved.status, 'Running', 'started again, as it was');
    assert.equal(moved.config['user.hostcloud.id'], s.id);
    await assertAddressInside(s);
    const row = await serverRow(s.id);
    assert.equal(row.node_id, env.nodes.cluster);
    assert.equal(row.power_state, 'running');
    assert.equal(row.status, 'active');
    onMember.delete(from);
    onMember.set(`${to} (moved)`, s);

    // A member the cluster does not have: the operation fails saying so; the server is as it was.
    const failed = await adminMigrate(s, { member: 'hc-nowhere' });
    assert.equal(failed.statusCode, 202, failed.body);
    const fop = await waitForOperation(env.t, c.key, json(failed).data.operation.id, 180_000);
    assert.equal(fop.status, 'failed');
    assert.match(JSON.stringify(fop), /no member hc-nowhere/);
    const deadline = Date.now() + 60_000;
    while ((await state(cluster, s.ref)).status !== 'Running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal((await instance(cluster, s.ref)).location, to);
    assert.equal((await state(cluster, s.ref)).status, 'Running');
    assert.equal((await serverRow(s.id)).power_state, 'running');
  });

  test('a cold migration to another node takes the instance out of the cluster (the migration API, pulled from the cluster)', async () => {
    const on = await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${env.nodes.first}`, { status: 'active' });
    assert.equal(on.statusCode, 200, on.body);
    const [key, s] = [...onMember].find(([k]) => k.endsWith('(moved)'))!;
    await finish(await adminMigrate(s, { node_id: env.nodes.first, mode: 'cold' }), 'migrate to the stand-alone node');
    assert.equal((await instance(first, s.ref)).status, 'Running');
    await assert.rejects(instance(cluster, s.ref), /404/);
    assert.equal((await serverRow(s.id)).node_id, env.nodes.first);
    onMember.set(key, s);
  });

  test('deletes remove the instance wherever it is', async () => {
    for (const [where, s] of onMember) {
      const client = where.endsWith('(moved)') ? first : cluster;
      const res = await call(env.t.app, 'DELETE', `/v2/servers/${s.id}`, { key: c.key });
      assert.ok(res.statusCode < 300, res.body);
      assert.equal((await lastOperation(s.id, 'server.delete')).status, 'completed', where);
      await assert.rejects(instance(client, s.ref), /404/, where);
    }
  });
});
