// v1 servers: create, detail, delete, start/stop/restart, upgrade, password-reset, reinstall, VNC —
// each a mapper over the core v2 uses, so a server made in either version is the same server.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { PASSWORD, activeServer, createServer } from '../helpers/servers.ts';
import { balanceCents, withFault } from '../helpers/server-extras.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '100.00' });
});

const body = (over: Record<string, unknown> = {}) => ({
  package_id: 1, version_id: 1, location_id: 1, server_name: `v1-${Math.random().toString(36).slice(2, 8)}.example.com`, password: PASSWORD, ...over,
});

/** Polls the v1 detail until the server leaves `pending` (the embedded worker provisions it). */
async function untilProvisioned(id: string, key = c.key): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const d = json(await v1(t.app, 'GET', `/v1/servers/${id}`, { key })).data;
    if (d.status !== 'pending') return d;
    if (Date.now() > deadline) throw new Error(`server ${id} still pending`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The latest operation on a server, awaited (v1 answers without one; v2 shows it). */
async function settle(serverId: string): Promise<void> {
  const op = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', serverId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  const done = await waitForOperation(t, c.key, op.id);
  assert.equal(done.status, 'completed', done.detail);
}

describe('POST /v1/servers', () => {
  test('creates and charges the first month; answers the v1 detail; v2 sees the same server', async () => {
    const before = await balanceCents(t, c);
    const res = await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ description: 'legacy order #12' }) });
    assert.equal(res.statusCode, 200, res.body);
    const b = json(res);
    assert.equal(b.message, 'Server is being created');
    assert.equal(b.data.status, 'pending');
    assert.equal(b.data.primary_ip, null);
    assert.deepEqual(b.data.traffic_usage, { upload_used: null, download_used: null, upload_limit: 1000, upload_limit_unit: 'GB' });
    assert.equal(await balanceCents(t, c), before - 500);
    const v2 = json(await call(t.app, 'GET', `/v2/servers/${b.data.server_id}`, { key: c.key })).data;
    assert.equal(v2.name, b.data.name);
    const ready = await untilProvisioned(b.data.server_id);
    assert.equal(ready.status, 'active');
    assert.match((ready.primary_ip as { ip_address: string }).ip_address, /^10\.1\.0\.\d+$/);
  });

  test('an Idempotency-Key replays the first answer and charges once', async () => {
    const key = '7f1c2a9e-8b7d-4c6e-9f00-1a2b3c4d5e6f';
    const before = await balanceCents(t, c);
    const b = body();
    const first = await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: b, headers: { 'idempotency-key': key } });
    const again = await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: b, headers: { 'idempotency-key': key } });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(json(again).data.server_id, json(first).data.server_id);
    assert.equal(await balanceCents(t, c), before - 500);
  });

  test('bad input → 422 naming the v1 fields; references and balance in DESIGN\'s order', async () => {
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: {} }), 422, 'VALIDATION_FAILED',
      ['location_id', 'package_id', 'password', 'server_name', 'version_id']);
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ package_id: '1', extra: 1 }) }), 422, 'VALIDATION_FAILED', ['extra', 'package_id']);
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ server_name: 'bad_name!' }) }), 422, 'VALIDATION_FAILED', ['server_name']);
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ password: 'weak' }) }), 422, 'INVALID_PASSWORD', ['password']);
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ package_id: 999 }) }), 422, 'PLAN_NOT_FOUND', ['package_id']);
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ version_id: 999 }) }), 422, 'OS_VERSION_INVALID', ['version_id']);
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: body({ location_id: 999 }) }), 422, 'LOCATION_INVALID', ['location_id']);
    const poor = await createCustomer(t, { deposit: '1.00' });
    expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: poor.key, body: body() }), 422, 'INSUFFICIENT_BALANCE');
    assert.equal(await balanceCents(t, poor), 100);
  });
});

describe('GET /v1/servers/{server_id}', () => {
  test('detail: primary IP with rDNS, extra IPs, traffic in bytes with the plan allowance in GB', async () => {
    const s = await activeServer(t, c, { ipv4_count: 2 });
    await call(t.app, 'PUT', `/v2/servers/${s.id}/ips/${s.network.ipv4.address}/rdns`, { key: c.key, body: { rdns: 'web.example.com' } });
    const res = await v1(t.app, 'GET', `/v1/servers/${s.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.deepEqual(Object.keys(d).sort(), ['extra_ips', 'name', 'primary_ip', 'server_id', 'status', 'traffic_usage']);
    assert.equal(d.server_id, s.id);
    assert.equal(d.status, 'active');
    assert.deepEqual(d.primary_ip, { ip_address: s.network.ipv4.address, rdns: 'web.example.com' });
    assert.deepEqual(d.extra_ips, [{ ip_address: s.network.extra_ips[0].address, type: 'IPv4', rdns: null }]);
    assert.equal(d.traffic_usage.upload_limit, 1000);
    assert.equal(d.traffic_usage.upload_limit_unit, 'GB');
    assert.ok(Number.isInteger(d.traffic_usage.upload_used) && Number.isInteger(d.traffic_usage.download_used));
  });

  test('another account\'s server and an unknown id → 404 NOT_FOUND', async () => {
    const s = await createServer(t, c);
    expectV1Error(await v1(t.app, 'GET', `/v1/servers/${s.id}`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', '/v1/servers/srv_missing', { key: c.key }), 404, 'NOT_FOUND');
  });
});

describe('power, password, reinstall, VNC, upgrade, delete', () => {
  test('stop → status stopped in the list filter; start; restart; each `{success, message}`', async () => {
    const s = await activeServer(t, c);
    const stop = await v1(t.app, 'POST', `/v1/servers/${s.id}/stop`, { key: c.key });
    assert.equal(stop.statusCode, 200, stop.body);
    assert.deepEqual(json(stop), { success: true, message: 'Server is stopping' });
    await settle(s.id);
    assert.equal(json(await v1(t.app, 'GET', `/v1/servers/${s.id}`, { key: c.key })).data.status, 'stopped');
    const stopped = json(await v1(t.app, 'GET', '/v1/servers?status=stopped', { key: c.key })).data.map((x: { server_id: string }) => x.server_id);
    assert.ok(stopped.includes(s.id));
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/stop`, { key: c.key }), 422, 'STATE_CONFLICT');
    assert.deepEqual(json(await v1(t.app, 'POST', `/v1/servers/${s.id}/start`, { key: c.key })), { success: true, message: 'Server is starting' });
    await settle(s.id);
    assert.deepEqual(json(await v1(t.app, 'POST', `/v1/servers/${s.id}/restart`, { key: c.key })), { success: true, message: 'Server is restarting' });
    await settle(s.id);
    assert.equal(json(await v1(t.app, 'GET', `/v1/servers/${s.id}`, { key: c.key })).data.status, 'active');
  });

  test('password-reset answers {server_id, new_password}; the operation sets it', async () => {
    const s = await activeServer(t, c);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/password-reset`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.equal(d.server_id, s.id);
    assert.ok(d.new_password.length >= 12);
    await settle(s.id);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/password-reset`, { key: c.key, body: { password: 'x' } }), 422, 'VALIDATION_FAILED', ['password']);
  });

  test('reinstall with version_id; an unknown version → 422 OS_VERSION_INVALID naming version_id', async () => {
    const s = await activeServer(t, c);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/reinstall`, { key: c.key, body: { version_id: 999 } }), 422, 'OS_VERSION_INVALID', ['version_id']);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/reinstall`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED', ['version_id']);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/reinstall`, { key: c.key, body: { version_id: 2 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).message, 'Reinstall started');
    assert.equal(json(res).data.server_id, s.id);
    await settle(s.id);
    const v2 = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
    const os = await t.database.db.selectFrom('operating_systems').select('slug').where('id', '=', 2).executeTakeFirstOrThrow();
    assert.equal(v2.os, os.slug);
  });

  test('vnc: viewer URL valid 300 s, an 8-character vnc_password, a usage note; the URL opens once', async () => {
    const s = await activeServer(t, c);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/vnc`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.equal(d.server_id, s.id);
    assert.equal(d.expires_in, 300);
    assert.match(d.vnc_password, /^[A-Za-z0-9_-]{8}$/);
    assert.match(d.usage_note, /300 seconds/);
    const path = new URL(d.viewer_url).pathname + new URL(d.viewer_url).search;
    assert.notEqual((await t.app.inject({ method: 'GET', url: path })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 409, 'single use');
  });

  test('upgrade: new_package_id (or plan_id) charged prorated; answers the detail; bad input names v1 fields', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/upgrade`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED', ['new_package_id']);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/upgrade`, { key: c.key, body: { new_package_id: 2, plan_id: 3 } }), 422, 'VALIDATION_FAILED', ['plan_id']);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/upgrade`, { key: c.key, body: { new_package_id: 999 } }), 422, 'VALIDATION_FAILED', ['new_package_id']);
    // A refused package names the field it came under.
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/upgrade`, { key: c.key, body: { plan_id: 999 } }), 422, 'VALIDATION_FAILED', ['plan_id']);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/upgrade`, { key: c.key, body: { plan_id: 2 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(json(res).message, /^Upgraded from Cloud S to Cloud M; charged \d+\.\d{2} USD$/);
    const charged = before - await balanceCents(t, c);
    assert.ok(charged > 0 && charged <= 1000, `charged ${charged}`);
    const list = json(await v1(t.app, 'GET', '/v1/servers?per_page=100', { key: c.key })).data.find((x: { server_id: string }) => x.server_id === s.id);
    assert.deepEqual(list.package, { id: 2, name: 'Cloud M' });
    assert.equal(list.amount, 15);
    assert.match(list.ip_address, /^10\.1\.0\.\d+$/);
    assert.equal(list.ip_address, s.network.ipv4.address, 'the list item carries the primary IPv4');
  });

  test('delete: `{success, message}`, refund of the unused hours, gone from v1 and v2', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const res = await v1(t.app, 'DELETE', `/v1/servers/${s.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json(res), { success: true, message: `Server ${s.id} deleted` });
    assert.ok(await balanceCents(t, c) > before, 'refunded');
    expectV1Error(await v1(t.app, 'GET', `/v1/servers/${s.id}`, { key: c.key }), 404, 'NOT_FOUND');
    assert.equal((await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).statusCode, 404);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/servers/${s.id}`, { key: c.key }), 404, 'NOT_FOUND');
  });

  test('a platform failure on VNC → 502 UPSTREAM_ERROR in the v1 envelope', async () => {
    const s = await activeServer(t, c);
    await withFault(t, 'upstream_error', ['openConsole'], async () => {
      expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/vnc`, { key: c.key }), 502, 'UPSTREAM_ERROR');
    });
  });
});

describe('every server route: another account\'s server → 404, a disallowed IP → 401', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', ''], ['DELETE', ''], ['POST', '/start'], ['POST', '/stop'], ['POST', '/restart'], ['POST', '/upgrade', { new_package_id: 2 }],
    ['POST', '/password-reset'], ['POST', '/reinstall', { version_id: 1 }], ['POST', '/vnc'],
    ['GET', '/ips'], ['POST', '/ips/purchase', { ip_type: 'IPv4' }], ['GET', '/ips/10.1.0.9'], ['POST', '/ips/10.1.0.9', { rdns: 'a.example.com' }],
    ['DELETE', '/ips/10.1.0.9'], ['GET', '/snapshots'], ['POST', '/snapshots', { name: 'x' }], ['DELETE', '/snapshots/1'], ['POST', '/snapshots/1/restore'],
  ];

  test('404 NOT_FOUND for another account\'s server on every route', async () => {
    const s = await createServer(t, c);
    for (const [method, suffix, b] of routes) {
      const res = await v1(t.app, method as 'GET', `/v1/servers/${s.id}${suffix}`, { key: other.key, body: b });
      expectV1Error(res, 404, 'NOT_FOUND');
    }
  });

  test('401 INVALID_API_KEY from an IP not on the key\'s allowlist, on every route', async () => {
    const s = await createServer(t, c);
    for (const [method, suffix, b] of [...routes, ['GET', '/../'] as [string, string], ['POST', '/../', body()] as [string, string, unknown]]) {
      const url = suffix === '/../' ? '/v1/servers' : `/v1/servers/${s.id}${suffix}`;
      expectV1Error(await v1(t.app, method as 'GET', url, { key: c.key, ip: '198.51.100.7', body: b }), 401, 'INVALID_API_KEY');
    }
  });
});
