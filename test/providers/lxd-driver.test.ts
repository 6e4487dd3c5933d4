// The LXD driver against real LXD: each customer action on a server, checked on the LXD side
// through LXD's own API (the instance, its config and devices, files inside it, its state).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { type Customer, adminCall, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { lxd, lxdClient, lxdSkip } from '../helpers/lxd.ts';
import { type LxdApp, startLxdApp } from '../helpers/lxd-app.ts';
import { serverBody } from '../helpers/servers.ts';
import { openSshKey } from '../helpers/ssh-keys.ts';
import type { LxdClient } from '../../src/providers/compute/lxd/client.ts';
import type { LxdInstance, LxdInstanceState } from '../../src/providers/compute/lxd/api-types.ts';

describe('LXD driver', { skip: lxdSkip, timeout: 600_000 }, () => {
  let env: LxdApp;
  let c: Customer;
  let first: LxdClient;
  let second: LxdClient;
  let server: { id: string; ipv4: string; ipv6: string | null; ref: string };

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

  const instance = (client: LxdClient, name: string) => client.get<LxdInstance>(`/1.0/instances/${name}`);
  const state = (client: LxdClient, name: string) => client.get<LxdInstanceState>(`/1.0/instances/${name}/state`);
  const shadowRoot = async (client: LxdClient, name: string) => (await client.readFile(name, '/etc/shadow'))!.toString().split('\n').find((l) => l.startsWith('root:'))!;
  const run = async (verb: string, body?: unknown) => {
    const res = await call(env.t.app, 'POST', `/v2/servers/${server.id}/actions/${verb}`, { key: c.key, ...(body ? { body } : {}) });
    assert.equal(res.statusCode, 202, res.body);
    const op = await waitForOperation(env.t, c.key, json(res).data.operation.id, 120_000);
    assert.equal(op.status, 'completed', `${verb}: ${op.detail}`);
    return json(res).data;
  };
  /** The newest operation of a type on the server, once finished (those the API answers without an operation). */
  const lastOperation = async (resourceId: string | null, type: string) => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      let q = env.t.database.db.selectFrom('operations').select(['id', 'status', 'detail']).where('type', '=', type);
      if (resourceId !== null) q = q.where('resource_id', '=', resourceId);
      const op = await q.orderBy('created_at', 'desc').executeTakeFirst();
      if (op && (op.status === 'completed' || op.status === 'failed')) return op;
      if (Date.now() > deadline) throw new Error(`no finished ${type} operation on ${resourceId}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const detail = async () => json(await call(env.t.app, 'GET', `/v2/servers/${server.id}`, { key: c.key })).data;

  test('create: the instance has our id, sizes, addresses, root password and SSH keys', async () => {
    const key = openSshKey('ed25519', 'lxd@test');
    const k = await call(env.t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: 'lxd', public_key: key } });
    assert.equal(k.statusCode, 201, k.body);
    const started = Date.now();
    const res = await call(env.t.app, 'POST', '/v2/servers', {
      key: c.key, body: serverBody({ location_id: env.locationId, ssh_key_ids: [json(k).data.id], user_data: '#cloud-config\nhostname: lxd-test\n' }),
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = json(res).data;
    const op = await waitForOperation(env.t, c.key, created.operation.id, 120_000);
    assert.equal(op.status, 'completed', op.detail);
    process.stdout.write(`# LXD create → running: ${Date.now() - started} ms\n`);
    const row = await env.t.database.db.selectFrom('servers').select(['provider_ref']).where('id', '=', created.id).executeTakeFirstOrThrow();
    const d = json(await call(env.t.app, 'GET', `/v2/servers/${created.id}`, { key: c.key })).data;
    server = { id: created.id, ipv4: d.network.ipv4.address, ipv6: d.network.ipv6?.address ?? null, ref: row.provider_ref! };
    assert.ok(server.ipv4?.startsWith(env.v4Prefix), JSON.stringify(d));

    const inst = await instance(first, server.ref);
    assert.equal(inst.status, 'Running');
    assert.equal(inst.config['user.hostcloud.id'], created.id);
    assert.equal(inst.config['user.hostcloud.token'], created.operation.id);
    assert.equal(inst.config['limits.cpu'], '1');
    assert.equal(inst.config['limits.memory'], '1024MiB');
    assert.match(inst.config['cloud-init.user-data'] ?? '', /hostname: lxd-test/);
    assert.equal(inst.devices.eth0?.nictype, 'routed');
    assert.ok(inst.devices.eth0?.['ipv4.address']?.split(',').includes(server.ipv4));
    const st = await state(first, server.ref);
    const inside = st.network?.eth0?.addresses.map((a) => a.address) ?? [];
    assert.ok(inside.includes(server.ipv4), `eth0 holds ${inside.join(', ')}`);
    assert.equal((await first.readFile(server.ref, '/root/.ssh/authorized_keys'))!.toString().trim(), key.trim());
    assert.match(await shadowRoot(first, server.ref), /^root:\$6\$/);
    assert.equal(d.power_state ?? d.power, 'running');
  });

  test('power: stop and start show on the instance, and in the detail', async () => {
    await run('stop');
    assert.equal((await state(first, server.ref)).status, 'Stopped');
    assert.equal((await detail()).power_state, 'stopped');
    await run('start');
    assert.equal((await state(first, server.ref)).status, 'Running');
    await run('reboot');
    assert.equal((await state(first, server.ref)).status, 'Running');
  });

  test('reset_password changes root\'s shadow entry', async () => {
    const before = await shadowRoot(first, server.ref);
    await run('reset_password', { password: 'An0ther!Passw0rd' });
    const now = await shadowRoot(first, server.ref);
    assert.notEqual(now, before);
    assert.match(now, /^root:\$6\$/);
  });

  test('resize sets limits.memory and the root disk size', async () => {
    await run('resize', { ram_gb: 2, disk_gb: 30 });
    const inst = await instance(first, server.ref);
    assert.equal(inst.config['limits.memory'], '2048MiB');
    assert.equal(inst.devices.root?.size, '30GiB');
  });

  test('snapshots: taken, restored and deleted on LXD', async () => {
    const res = await call(env.t.app, 'POST', `/v2/servers/${server.id}/snapshots`, { key: c.key, body: { name: 'before' } });
    assert.equal(res.statusCode, 201, res.body);
    const snap = json(res).data;
    const op = await waitForOperation(env.t, c.key, snap.operation?.id ?? snap.operation_id, 120_000);
    assert.equal(op.status, 'completed', op.detail);
    const names = await first.get<string[]>(`/1.0/instances/${server.ref}/snapshots`);
    assert.equal(names.length, 1);
    const snapId = snap.id ?? snap.snapshot?.id;
    const restore = await call(env.t.app, 'POST', `/v2/servers/${server.id}/snapshots/${snapId}/restore`, { key: c.key });
    assert.equal(restore.statusCode, 202, restore.body);
    assert.equal((await waitForOperation(env.t, c.key, json(restore).data.operation.id, 120_000)).status, 'completed');
    assert.equal((await state(first, server.ref)).status, 'Running');
    const del = await call(env.t.app, 'DELETE', `/v2/servers/${server.id}/snapshots/${snapId}`, { key: c.key });
    assert.ok(del.statusCode < 300, del.body);
    const delOp = json(del).data?.operation?.id;
    if (delOp) await waitForOperation(env.t, c.key, delOp, 60_000);
    assert.deepEqual(await first.get<string[]>(`/1.0/instances/${server.ref}/snapshots`), []);
  });

  test('clone: a new instance from a snapshot, on the node placement picks (the other LXD server: sent across)', async () => {
    const data = await run('clone');
    const cloneId = data.server?.id as string;
    assert.ok(cloneId, JSON.stringify(data));
    const row = await env.t.database.db.selectFrom('servers').select(['provider_ref', 'node_id']).where('id', '=', cloneId).executeTakeFirstOrThrow();
    const where = row.node_id === env.nodes.second ? second : first;
    process.stdout.write(`# clone placed on the ${row.node_id === env.nodes.second ? 'second (https)' : 'first'} node\n`);
    const inst = await instance(where, row.provider_ref!);
    assert.equal(inst.status, 'Running');
    assert.equal(inst.config['user.hostcloud.id'], cloneId);
    const clone = json(await call(env.t.app, 'GET', `/v2/servers/${cloneId}`, { key: c.key })).data;
    const cloneIpv4 = clone.network.ipv4.address as string;
    assert.notEqual(cloneIpv4, server.ipv4);
    assert.ok(inst.devices.eth0?.['ipv4.address']?.split(',').includes(cloneIpv4), JSON.stringify(inst.devices.eth0));
    // The copied disk keeps the source's root password.
    assert.equal(await shadowRoot(where, row.provider_ref!), await shadowRoot(first, server.ref));
    const del = await call(env.t.app, 'DELETE', `/v2/servers/${cloneId}`, { key: c.key });
    assert.ok(del.statusCode < 300, del.body);
    assert.equal((await lastOperation(cloneId, 'server.delete')).status, 'completed');
    await assert.rejects(instance(where, row.provider_ref!), /404/);
  });

  test('an extra address is configured on eth0, and released from it', async () => {
    const res = await call(env.t.app, 'POST', `/v2/servers/${server.id}/ips`, { key: c.key, body: { version: 4 } });
    assert.equal(res.statusCode, 201, res.body);
    const extra = json(res).data.address as string;
    assert.ok(extra.startsWith(env.v4Prefix), extra);
    assert.ok((await instance(first, server.ref)).devices.eth0?.['ipv4.address']?.split(',').includes(extra));
    assert.ok((await state(first, server.ref)).network!.eth0!.addresses.some((a) => a.address === extra));
    const del = await call(env.t.app, 'DELETE', `/v2/servers/${server.id}/ips/${extra}`, { key: c.key });
    assert.ok(del.statusCode < 300, del.body);
    assert.equal((await lastOperation(null, 'server.ip_release')).status, 'completed');
    assert.ok(!(await instance(first, server.ref)).devices.eth0?.['ipv4.address']?.split(',').includes(extra));
    assert.ok(!(await state(first, server.ref)).network!.eth0!.addresses.some((a) => a.address === extra));
  });

  test('metrics and traffic come from the instance\'s state', async () => {
    const m = await call(env.t.app, 'GET', `/v2/servers/${server.id}/metrics`, { key: c.key });
    assert.equal(m.statusCode, 200, m.body);
    const t = await call(env.t.app, 'GET', `/v2/servers/${server.id}/traffic`, { key: c.key });
    assert.equal(t.statusCode, 200, t.body);
  });

  test('live migration is refused (no CRIU); a cold one moves the instance to the second daemon', async () => {
    const live = await call(env.t.app, 'POST', `/v2/servers/${server.id}/actions/migrate`, { key: c.key, body: { mode: 'live' } });
    assert.equal(live.statusCode, 422, live.body);
    assert.equal(json(live).error.code, 'NODE_INCOMPATIBLE_LIVE_MIGRATE');
    const started = Date.now();
    await run('migrate', { mode: 'cold' });
    process.stdout.write(`# LXD cold migration: ${Date.now() - started} ms\n`);
    const moved = await instance(second, server.ref);
    assert.equal(moved.status, 'Running');
    assert.equal(moved.config['user.hostcloud.id'], server.id);
    await assert.rejects(instance(first, server.ref), /404/);
    assert.equal((await detail()).power_state, 'running');
  });

  test('reinstall rebuilds the instance with the same name and addresses, root keeping its password', async () => {
    const before = await shadowRoot(second, server.ref);
    await run('reinstall');
    const inst = await instance(second, server.ref);
    assert.equal(inst.status, 'Running');
    assert.equal(inst.config['user.hostcloud.id'], server.id);
    assert.ok(inst.devices.eth0?.['ipv4.address']?.split(',').includes(server.ipv4));
    assert.equal(await shadowRoot(second, server.ref), before);
  });

  /** Opens a console link as a browser does and connects its WebSocket; the upgrade's refusal status, if any. */
  const attachConsole = async (origin: string): Promise<{ ws: WebSocket } | { refused: number }> => {
    const res = await call(env.t.app, 'GET', `/v2/servers/${server.id}/console`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const u = new URL(json(res).data.viewer_url);
    const page = await call(env.t.app, 'GET', `${u.pathname}${u.search}`, { headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200, page.body);
    const socket = /data-socket="([^"]+)"/.exec(page.body)![1]!.replaceAll('&#38;', '&');
    const ws = new WebSocket(`${origin.replace('http:', 'ws:')}${socket}`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve({ ws }));
      ws.once('unexpected-response', (_req, r) => resolve({ refused: r.statusCode ?? 0 }));
      ws.once('error', reject);
    });
  };

  test('console: a session attaches to the instance\'s console (on the second daemon, over https); a platform failure is 502 and logged', async () => {
    await env.t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(env.t.app.server.address() as { port: number }).port}`;
    const attached = await attachConsole(origin);
    assert.ok('ws' in attached, `refused ${JSON.stringify(attached)}`);
    const { ws } = attached;
    let text = '';
    const answered = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        text += data.toString('utf8');
        if (/^42\r?$/m.test(text)) resolve();
      });
    });
    ws.send(Buffer.from('\recho $((6*7))\r'), { binary: true });
    // Typed the moment the socket opened: LXD drops what arrives before its console is attached,
    // so the driver holds it until then (src/providers/compute/lxd/console.ts).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([answered, new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no 42 from the console within 30 s; it sent ${JSON.stringify(text)}`)), 30_000);
    })]).finally(() => clearTimeout(timer));
    ws.close();
    await once(ws, 'close');

    // The instance stopped behind Hostcloud's back (its row still says running): LXD refuses the
    // console, the page's socket is refused 502, and the log says why.
    await second.request('PUT', `/1.0/instances/${server.ref}/state`, { body: { action: 'stop', force: true, timeout: 30 } });
    try {
      const refused = await attachConsole(origin);
      assert.deepEqual(refused, { refused: 502 });
      const line = env.t.logs.find((l) => l.includes('attaching a console to the platform failed'));
      assert.ok(line, 'the failed attach is logged');
      assert.match(line, new RegExp(`${server.ref}/console`));
    } finally {
      await second.request('PUT', `/1.0/instances/${server.ref}/state`, { body: { action: 'start', timeout: 30 } });
    }
  });

  test('delete removes the instance', async () => {
    const res = await call(env.t.app, 'DELETE', `/v2/servers/${server.id}`, { key: c.key });
    assert.ok(res.statusCode < 300, res.body);
    assert.equal((await lastOperation(server.id, 'server.delete')).status, 'completed');
    await assert.rejects(instance(second, server.ref), /404/);
  });

  test('an OS without an image is refused before any charge', async () => {
    const none = await adminCall(env.t, 'PATCH', '/admin/v1/operating-systems/2', { image: null });
    assert.equal(none.statusCode, 200, none.body);
    const res = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: env.locationId, os_version_id: 2 }) });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'OS_VERSION_INVALID');
  });
});
