// Live readings of a server: GET /v2/servers/{id}/metrics, /traffic and /firewall/rules. They have
// no stored fallback, so a failing platform is 502 and a server without a machine is 409.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type Json, activeServer } from '../helpers/servers.ts';
import { assertError, assertInvalid, withFault, withPendingServer } from '../helpers/server-extras.ts';

const CLOUD_M = 2;

let t: TestApp;
let c: Customer;
let other: Customer;
let server: Json;
let custom: Json;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '200.00' });
  other = await createCustomer(t, { deposit: '10.00' });
  server = await activeServer(t, c, { plan_id: CLOUD_M });
  custom = await activeServer(t, c, { plan_id: undefined, cpu_cores: 1, ram_mb: 1024, storage_gb: 20 });
});

const get = (id: string, what: string, key = c.key) => call(t.app, 'GET', `/v2/servers/${id}/${what}`, { key });
const ROUTES = ['metrics', 'traffic', 'firewall/rules'];
const pct = (n: unknown) => typeof n === 'number' && n >= 0 && n <= 100;

describe('GET /servers/{id}/metrics', () => {
  test('200: CPU, memory and disk utilization in percent, with the sample time', async () => {
    const res = await get(server.id, 'metrics');
    assert.equal(res.statusCode, 200, res.body);
    const m = json(res).data;
    assert.deepEqual(Object.keys(m).sort(), ['cpu_pct', 'disk_pct', 'memory_pct', 'sampled_at']);
    assert.ok(pct(m.cpu_pct) && pct(m.memory_pct) && pct(m.disk_pct), res.body);
    assert.match(m.sampled_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(Date.now() - Date.parse(m.sampled_at) < 120_000);
  });
});

describe('GET /servers/{id}/traffic', () => {
  test("200: this month's bytes; the quota is the plan's bandwidth (2000 GB for Cloud M)", async () => {
    const res = await get(server.id, 'traffic');
    assert.equal(res.statusCode, 200, res.body);
    const tr = json(res).data;
    assert.deepEqual(Object.keys(tr).sort(), ['in_bytes', 'month', 'out_bytes', 'quota_bytes']);
    assert.equal(tr.month, new Date().toISOString().slice(0, 7));
    assert.ok(Number.isInteger(tr.in_bytes) && tr.in_bytes >= 0);
    assert.ok(Number.isInteger(tr.out_bytes) && tr.out_bytes >= 0);
    assert.equal(tr.quota_bytes, 2_000_000_000_000);
  });

  test("a custom server (no plan) gets the platform's quota", async () => {
    const tr = json(await get(custom.id, 'traffic')).data;
    assert.equal(tr.quota_bytes, 1_000_000_000_000);
  });
});

describe('GET /servers/{id}/firewall/rules', () => {
  test('200: rules ordered by position ascending, paged', async () => {
    const res = await get(server.id, 'firewall/rules');
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.ok(body.data.length >= 2);
    const positions = body.data.map((r: Json) => r.position);
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
    for (const r of body.data) {
      assert.deepEqual(Object.keys(r).sort(), ['action', 'direction', 'port', 'position', 'protocol', 'source']);
      assert.ok(['accept', 'drop'].includes(r.action) && ['inbound', 'outbound'].includes(r.direction));
    }
    assert.deepEqual(body.data[0], { position: 1, direction: 'inbound', protocol: 'tcp', port: '22', source: '0.0.0.0/0', action: 'accept' });
    assert.equal(body.meta.pagination.total, body.data.length);
    const p2 = json(await call(t.app, 'GET', `/v2/servers/${server.id}/firewall/rules`, { key: c.key, query: { per_page: '2', page: '2' } }));
    assert.deepEqual(p2.data, body.data.slice(2, 4));
    assertInvalid(await call(t.app, 'GET', `/v2/servers/${server.id}/firewall/rules`, { key: c.key, query: { page: '0' } }), ['page']);
  });
});

describe('errors shared by the three', () => {
  test("404 for an unknown server and another account's", async () => {
    for (const what of ROUTES) {
      assertError(await get(server.id, what, other.key), 404, 'RESOURCE_NOT_FOUND');
      assertError(await get('srv_doesnotexist0000', what), 404, 'RESOURCE_NOT_FOUND');
    }
  });

  test('409 STATE_CONFLICT while the server is pending', async () => {
    await withPendingServer(t, c, async (pending) => {
      for (const what of ROUTES) assertError(await get(pending.id, what), 409, 'STATE_CONFLICT');
    });
  });

  test('502 UPSTREAM_ERROR when the platform fails or hangs', async () => {
    for (const mode of ['upstream_error', 'timeout']) {
      await withFault(t, mode, ['metrics', 'traffic', 'firewallRules'], async () => {
        for (const what of ROUTES) assertError(await get(server.id, what), 502, 'UPSTREAM_ERROR');
      });
    }
  });

  test('sandbox: answered by the no-op platform, with meta.sandbox', async () => {
    const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true })).data.key;
    for (const what of ROUTES) {
      const res = await get(server.id, what, testKey);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).meta.sandbox, true);
    }
    assert.equal(json(await get(server.id, 'traffic', testKey)).data.quota_bytes, 2_000_000_000_000, 'the plan still sets the quota');
  });
});
