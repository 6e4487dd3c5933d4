// Faults on real LXD: the daemon going away in the middle of a create (retried, then failed and
// refunded, and nothing left on the node once it is back), and a worker SIGKILLed in the middle of
// a create (another worker finishes it: one instance, not two).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LxdInstance } from '../../src/providers/compute/lxd/api-types.ts';
import type { LxdClient } from '../../src/providers/compute/lxd/client.ts';
import { adminCall, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { type SocketProxy, lxd, lxdClient, lxdSkip, socketProxy } from '../helpers/lxd.ts';
import { type LxdApp, startLxdApp } from '../helpers/lxd-app.ts';
import { assertLedgerExact, balanceCents } from '../helpers/server-extras.ts';
import { serverBody } from '../helpers/servers.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';

describe('LXD faults', { skip: lxdSkip, timeout: 300_000 }, () => {
  let client: LxdClient;
  const proxies: SocketProxy[] = [];
  before(() => {
    client = lxdClient(lxd!.first);
  });
  after(async () => {
    killWorkers();
    client?.close();
    for (const p of proxies) await p.close().catch(() => {});
  });

  /** The instances of this file's project made for one of our ids. */
  const instancesOf = async (id: string) => (await client.get<LxdInstance[]>('/1.0/instances', { query: { recursion: 1 } }))
    .filter((i) => i.config['user.hostcloud.id'] === id);

  /** Only `nodeId` takes new servers in the app's location. */
  const onlyNode = async (env: LxdApp, nodeId: number) => {
    for (const n of json(await adminCall(env.t, 'GET', `/admin/v1/nodes?location_id=${env.locationId}`)).data as { id: number }[]) {
      await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${n.id}`, { status: n.id === nodeId ? 'active' : 'disabled' });
    }
  };

  test('the daemon stops mid-create: retried, then failed and refunded; nothing left on the node once it is back', async () => {
    const env = await startLxdApp({ config: { jobRetryLimit: 2, jobRetryDelayS: 1 } });
    // The "daemon" stops as the new instance is started: after LXD made it.
    const proxy = await socketProxy(lxd!.first.slice('unix:'.length), (head) => /^PUT \/1\.0\/instances\/[^/ ]+\/state/.test(head));
    proxies.push(proxy);
    const node = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: `${env.locationId}-flaky`, endpoint: `unix:${proxy.path}` });
    assert.equal(node.statusCode, 201, node.body);
    await onlyNode(env, json(node).data.id);
    const c = await createCustomer(env.t, { deposit: '50.00' });
    const res = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: env.locationId }) });
    assert.equal(res.statusCode, 201, res.body);
    const server = json(res).data;
    const op = await waitForOperation(env.t, c.key, server.operation.id, 120_000);
    assert.equal(op.status, 'failed');
    const row = await env.t.database.db.selectFrom('operations').select(['attempts']).where('id', '=', server.operation.id).executeTakeFirstOrThrow();
    assert.ok(row.attempts >= 2, `attempts: ${row.attempts}`);
    assert.equal(await balanceCents(env.t, c), 5000, 'the first cycle was refunded');
    await assertLedgerExact(env.t, c);
    assert.equal(json(await call(env.t.app, 'GET', `/v2/servers/${server.id}`, { key: c.key })).data.status, 'cancelled');
    // LXD had made the instance before it went away; once it is back, the failed create's undo removes it.
    assert.equal((await instancesOf(server.id)).length, 1);
    await proxy.start();
    await until('the failed create\'s instance to be removed', 60_000, async () => ((await instancesOf(server.id)).length === 0 ? true : undefined));
  });

  test('a worker SIGKILLed mid-create: another one finishes it, with one instance', async () => {
    const env = await startLxdApp({ config: { worker: 'off' } });
    await onlyNode(env, env.nodes.first);
    const lxdEnv = {
      COMPUTE_DRIVER: 'lxd', LXD_PROJECT: lxd!.project, LXD_INSTANCE_TYPE: 'container', LXD_CLIENT_CERT: lxd!.certFile, LXD_CLIENT_KEY: lxd!.keyFile,
    };
    const first = startWorker(env.t.databaseUrl, 0, lxdEnv);
    const c = await createCustomer(env.t, { deposit: '50.00' });
    const res = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: env.locationId }) });
    assert.equal(res.statusCode, 201, res.body);
    const server = json(res).data;
    // Killed as soon as LXD has the instance: the create is half done.
    await until('the instance to exist', 60_000, async () => ((await instancesOf(server.id)).length > 0 ? true : undefined));
    first.child.kill('SIGKILL');
    startWorker(env.t.databaseUrl, 0, lxdEnv);
    const op = await waitForOperation(env.t, c.key, server.operation.id, 120_000);
    assert.equal(op.status, 'completed', op.detail);
    const made = await instancesOf(server.id);
    assert.equal(made.length, 1);
    assert.equal(made[0]!.status, 'Running');
    assert.equal(json(await call(env.t.app, 'GET', `/v2/servers/${server.id}`, { key: c.key })).data.status, 'active');
  });
});
