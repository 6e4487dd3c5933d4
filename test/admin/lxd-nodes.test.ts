// Nodes that are LXD servers: added by endpoint (sizes read from the node, the https certificate
// pinned), refused clearly when they cannot be used, shown `unreachable` when they stop answering,
// and a server on an unreachable node still answers its detail (power `unknown`). The CLI prints
// the command that trusts Hostcloud's certificate on the LXD server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runAdmin } from '../../src/cli/admin.ts';
import { adminCall, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { lxd, lxdSkip, socketProxy } from '../helpers/lxd.ts';
import { type LxdApp, startLxdApp } from '../helpers/lxd-app.ts';
import { serverBody } from '../helpers/servers.ts';

describe('LXD nodes', { skip: lxdSkip, timeout: 300_000 }, () => {
  let env: LxdApp;
  let url: string;
  const proxies: { close(): Promise<void> }[] = [];

  before(async () => {
    env = await startLxdApp();
    await env.t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.t.app.server.address() as { port: number }).port}`;
  });
  after(async () => {
    for (const p of proxies) await p.close().catch(() => {});
  });

  test('a unix-socket node: sizes and CPU vendor read from LXD, no fingerprint', async () => {
    const node = json(await adminCall(env.t, 'GET', `/admin/v1/nodes/${env.nodes.first}`)).data;
    assert.equal(node.endpoint, lxd!.first);
    assert.equal(node.fingerprint, null);
    assert.ok(node.cpu.total >= 1);
    assert.ok(node.ram_mb.total >= 1024);
    assert.ok(node.storage_gb.total >= 10);
    assert.ok(['intel', 'amd'].includes(node.cpu_vendor));
  });

  test('an https node: its certificate\'s fingerprint is pinned; another pinned fingerprint is refused', async () => {
    const res = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: `${env.locationId}-https`, endpoint: lxd!.second, cpu_cores: 1 });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(json(res).data.fingerprint, lxd!.secondFingerprint);
    assert.equal(json(res).data.cpu.total, 1, 'a size given wins over the node\'s');
    const wrong = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: `${env.locationId}-wrong`, endpoint: lxd!.second, fingerprint: 'ab'.repeat(32) });
    assert.equal(wrong.statusCode, 502, wrong.body);
    assert.equal(json(wrong).error.code, 'UPSTREAM_ERROR');
    assert.match(json(wrong).error.message, /certificate changed/);
  });

  test('an endpoint that does not answer, or is not one, is refused at add time with the reason', async () => {
    const dead = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: 'dead-1', endpoint: 'unix:/nonexistent/lxd.socket' });
    assert.equal(dead.statusCode, 502, dead.body);
    assert.match(json(dead).error.message, /unreachable/);
    const refused = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: 'dead-2', endpoint: 'https://127.0.0.1:9' });
    assert.equal(refused.statusCode, 502, refused.body);
    assert.match(json(refused).error.message, /unreachable/);
    const bad = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: 'bad-1', endpoint: 'ftp://example.net' });
    assert.equal(bad.statusCode, 422, bad.body);
    assert.equal(json(bad).error.errors[0].field, 'endpoint');
    const noSizes = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: env.locationId, name: 'bad-2' });
    assert.equal(noSizes.statusCode, 422, noSizes.body);
    const names = (json(await adminCall(env.t, 'GET', `/admin/v1/nodes?location_id=${env.locationId}`)).data as { name: string }[]).map((n) => n.name);
    assert.ok(!names.some((n) => n.startsWith('dead-') || n.startsWith('bad-')));
  });

  test('a node that stops answering: `unreachable` in the list, and its server\'s detail says power unknown (no 500)', async () => {
    const proxy = await socketProxy(lxd!.first.slice('unix:'.length));
    proxies.push(proxy);
    const loc = env.locationId;
    // Only this node takes new servers in the location for a moment.
    const others = (json(await adminCall(env.t, 'GET', `/admin/v1/nodes?location_id=${loc}`)).data as { id: number }[]).map((n) => n.id);
    for (const id of others) await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${id}`, { status: 'disabled' });
    const added = await adminCall(env.t, 'POST', '/admin/v1/nodes', { location_id: loc, name: `${loc}-proxied`, endpoint: `unix:${proxy.path}` });
    assert.equal(added.statusCode, 201, added.body);
    const c = await createCustomer(env.t, { deposit: '50.00' });
    const res = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await waitForOperation(env.t, c.key, json(res).data.operation.id, 120_000)).status, 'completed');
    for (const id of others) await adminCall(env.t, 'PATCH', `/admin/v1/nodes/${id}`, { status: 'active' });
    // The list's probe of each node waits PROVIDER_TIMEOUT_MS, which the test app sets long enough
    // for a busy machine (at the 2 s default a loaded machine's answer came too late: unreachable).
    const ok = json(await adminCall(env.t, 'GET', `/admin/v1/nodes?location_id=${loc}`)).data as { name: string; connection: string }[];
    assert.equal(ok.find((n) => n.name === `${loc}-proxied`)!.connection, 'ok');

    await proxy.stop();
    const list = json(await adminCall(env.t, 'GET', `/admin/v1/nodes?location_id=${loc}`)).data as { name: string; connection: string; connection_error: string }[];
    const down = list.find((n) => n.name === `${loc}-proxied`)!;
    assert.equal(down.connection, 'unreachable');
    assert.match(down.connection_error, /unreachable/);
    assert.equal(list.find((n) => n.name.endsWith('-a'))!.connection, 'ok');
    const detail = await call(env.t.app, 'GET', `/v2/servers/${json(res).data.id}`, { key: c.key });
    assert.equal(detail.statusCode, 200, detail.body);
    assert.equal(json(detail).data.power_state, 'unknown');
  });

  test('the client certificate and the command that trusts it; the CLI prints it when adding an https node', async () => {
    const cert = json(await adminCall(env.t, 'GET', '/admin/v1/nodes/client-certificate')).data;
    assert.match(cert.certificate, /BEGIN CERTIFICATE/);
    assert.match(cert.trust_command, /lxc config trust add hostcloud\.crt/);
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', url, '--token', env.t.adminToken, 'nodes', 'add', '--location', String(env.locationId), '--name', `${env.locationId}-cli`, '--endpoint', lxd!.second], {
      stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; },
    });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /node added/);
    assert.match(stdout, /lxc config trust add hostcloud\.crt/);
    assert.match(stdout, /BEGIN CERTIFICATE/);
  });
});
