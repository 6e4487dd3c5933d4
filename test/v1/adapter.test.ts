// The v1 adapter: X-API-Key authentication with v2's keys, allowlists, scopes, rate limits and
// sandbox; the v1 envelopes and statuses; 404/405/400 under /v1 in the v1 envelope; the v1
// OpenAPI 3.0.3 document.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { createServer } from '../helpers/servers.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp();
  c = await createCustomer(t, { deposit: '100.00' });
  other = await createCustomer(t, { deposit: '100.00' });
});

describe('GET /v1/openapi.json', () => {
  test('a valid OpenAPI 3.0.3 document of v1, public, with the X-API-Key scheme and v1 error envelope', async () => {
    const res = await call(t.app, 'GET', '/v1/openapi.json');
    assert.equal(res.statusCode, 200);
    const doc = json(res);
    assert.equal(doc.openapi, '3.0.3');
    assert.equal(doc.info.version, '1.0.7');
    assert.deepEqual(doc.servers, [{ url: 'http://api.test/v1', description: 'This service' }]);
    assert.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key', description: doc.components.securitySchemes.apiKey.description });
    const result = await validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result));
    const list = doc.paths['/servers'].get;
    assert.equal(list.operationId, 'listServers');
    assert.deepEqual(list.responses['401'].description.match(/`[A-Z_]+`/g), ['`INVALID_API_KEY`']);
    assert.ok(list.responses['403'].description.includes('`FORBIDDEN`'));
    assert.ok(list.responses['429'].headers['Retry-After']);
    assert.equal(doc.paths['/servers/{server_id}/start'].post.parameters[0].in, 'path');
    // OpenAPI 3.0 has no null type: nullable fields say so.
    const item = list.responses['200'].content['application/json'].schema.properties.data.items;
    assert.equal(item.properties.ip_address.nullable, true);
    assert.equal(item.properties.ip_address.type, 'string');
    assert.ok(!JSON.stringify(doc).includes('"examples"'), 'examples are written as 3.0 `example`');
  });

  test('the v2 reference has a Legacy v1 section linking the v1 document', async () => {
    const v2 = json(await call(t.app, 'GET', '/v2/openapi.json'));
    assert.match(v2.info.description, /# Legacy v1\n/);
    assert.ok(v2.info.description.includes('(http://api.test/v1/openapi.json)'));
  });
});

describe('authentication', () => {
  test('no key, an unknown key, a malformed header, a Bearer header → 401 INVALID_API_KEY', async () => {
    expectV1Error(await v1(t.app, 'GET', '/v1/servers'), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'GET', '/v1/servers', { key: 'hc_live_00000000000000000000000000000000' }), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'GET', '/v1/servers', { key: 'not a key' }), 401, 'INVALID_API_KEY');
    const bearer = await v1(t.app, 'GET', '/v1/servers', { headers: { authorization: `Bearer ${c.key}` } });
    const err = expectV1Error(bearer, 401, 'INVALID_API_KEY');
    assert.match(err.message, /X-API-Key/);
  });

  test('a key used from an IP not on its allowlist → 401 INVALID_API_KEY (reason AUTH_IP_NOT_ALLOWED)', async () => {
    const err = expectV1Error(await v1(t.app, 'GET', '/v1/servers', { key: c.key, ip: '203.0.113.9' }), 401, 'INVALID_API_KEY');
    assert.equal(err.details.reason, 'AUTH_IP_NOT_ALLOWED');
    assert.match(err.details.request_id, /^req_/);
  });

  test('a revoked key → 401; a key without the scope → 403 FORBIDDEN; a suspended account → 403 FORBIDDEN', async () => {
    const revoked = await createCustomer(t);
    assert.equal((await adminCall(t, 'DELETE', `/admin/v1/api-keys/${revoked.keyId}`)).statusCode, 200);
    expectV1Error(await v1(t.app, 'GET', '/v1/servers', { key: revoked.key }), 401, 'INVALID_API_KEY');

    const narrow = await createCustomer(t, { scopes: ['servers:read'] });
    assert.equal((await v1(t.app, 'GET', '/v1/servers', { key: narrow.key })).statusCode, 200);
    const scope = expectV1Error(await v1(t.app, 'POST', '/v1/servers/srv_x/start', { key: narrow.key }), 403, 'FORBIDDEN');
    assert.equal(scope.details.reason, 'AUTH_SCOPE_INSUFFICIENT');

    const suspended = await createCustomer(t);
    await adminCall(t, 'PATCH', `/admin/v1/accounts/${suspended.accountId}`, { status: 'suspended' });
    const inactive = expectV1Error(await v1(t.app, 'GET', '/v1/servers', { key: suspended.key }), 403, 'FORBIDDEN');
    assert.equal(inactive.details.reason, 'ACCOUNT_INACTIVE');
  });

  test('rate limits are v2\'s: over the budget → 429 RATE_LIMITED with Retry-After, in the v1 envelope', async () => {
    const limited = await t.sibling({ rateLimitMax: 2, rateLimitPrefix: `hct:v1rl:${Date.now()}` });
    const k = await createCustomer(t);
    for (let i = 0; i < 2; i++) assert.equal((await v1(limited, 'GET', '/v1/servers', { key: k.key })).statusCode, 200);
    const res = await v1(limited, 'GET', '/v1/servers', { key: k.key });
    expectV1Error(res, 429, 'RATE_LIMITED');
    assert.ok(Number(res.headers['retry-after']) >= 1);
    assert.equal(res.headers['ratelimit-remaining'], '0');
  });
});

describe('the v1 envelope for what fails before a route', () => {
  test('unknown path → 404 NOT_FOUND; known path, other method → 405 with Allow', async () => {
    const nf = expectV1Error(await v1(t.app, 'GET', '/v1/nothing-here', { key: c.key }), 404, 'NOT_FOUND');
    assert.equal(nf.details.reason, 'ENDPOINT_NOT_FOUND');
    const res = await v1(t.app, 'PATCH', '/v1/servers', { key: c.key });
    expectV1Error(res, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(res.headers.allow, 'GET, HEAD, POST');
  });

  test('malformed JSON → 400 REQUEST_MALFORMED; another content type → 400 UNSUPPORTED_MEDIA_TYPE; a bad URL → 400', async () => {
    const s = await createServer(t, c);
    const bad = await v1(t.app, 'POST', `/v1/servers/${s.id}/start`, { key: c.key, body: '{"x":', headers: { 'content-type': 'application/json' } });
    expectV1Error(bad, 400, 'REQUEST_MALFORMED');
    const text = await v1(t.app, 'POST', `/v1/servers/${s.id}/start`, { key: c.key, body: 'start', headers: { 'content-type': 'text/plain' } });
    expectV1Error(text, 400, 'UNSUPPORTED_MEDIA_TYPE');
    const url = await t.app.inject({ method: 'GET', url: '/v1/servers/%E0%A4%A', headers: { 'x-api-key': c.key }, remoteAddress: '127.0.0.1' });
    expectV1Error(url, 400, 'REQUEST_MALFORMED');
  });

  test('a lone surrogate in a body value → 422 naming the field, in the v1 envelope', async () => {
    const s = await createServer(t, c);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots`, { key: c.key, body: '{"name":"x\\ud800"}', headers: { 'content-type': 'application/json' } });
    const err = expectV1Error(res, 422, 'VALIDATION_FAILED', ['name']);
    assert.match(err.details.fields.name, /not valid Unicode/);
  });

  test('bad query → 422 VALIDATION_FAILED with details.fields naming each parameter', async () => {
    const err = expectV1Error(await v1(t.app, 'GET', '/v1/servers?per_page=500&status=running&page=0', { key: c.key }), 422, 'VALIDATION_FAILED', ['page', 'per_page', 'status']);
    assert.equal(typeof err.details.fields.per_page, 'string');
  });
});

describe('GET /v1/servers', () => {
  test('a server made in v2 is listed with v1 names and shapes; pagination {current_page, total, total_pages}', async () => {
    const k = await createCustomer(t, { deposit: '50.00' });
    const a = await createServer(t, k);
    const b = await createServer(t, k);
    const res = await v1(t.app, 'GET', '/v1/servers?per_page=1', { key: k.key });
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.deepEqual(body.pagination, { current_page: 1, total: 2, total_pages: 2 });
    assert.deepEqual(Object.keys(body.data[0]).sort(), ['amount', 'ip_address', 'name', 'next_billing_date', 'package', 'server_id', 'status']);
    assert.equal(body.data[0].server_id, b.id);
    assert.equal(body.data[0].amount, 5);
    assert.deepEqual(body.data[0].package, { id: 1, name: b.plan.name });
    assert.equal(body.data[0].status, 'pending');
    const page2 = json(await v1(t.app, 'GET', '/v1/servers?per_page=1&page=2', { key: k.key }));
    assert.equal(page2.data[0].server_id, a.id);
    const past = json(await v1(t.app, 'GET', '/v1/servers?page=9', { key: k.key }));
    assert.deepEqual(past.data, []);
  });

  test('status filter: active, stopped, suspended; another account\'s servers never appear', async () => {
    const k = await createCustomer(t, { deposit: '50.00' });
    const s = await createServer(t, k);
    // Made active and powered off directly: provisioning is another file's subject.
    await t.database.db.updateTable('servers').set({ status: 'active', power_state: 'stopped' }).where('id', '=', s.id).execute();
    const ids = async (status: string, key = k.key) => json(await v1(t.app, 'GET', `/v1/servers?status=${status}`, { key })).data.map((x: { server_id: string }) => x.server_id);
    assert.deepEqual(await ids('stopped'), [s.id]);
    assert.deepEqual(await ids('active'), []);
    await t.database.db.updateTable('servers').set({ power_state: 'running' }).where('id', '=', s.id).execute();
    assert.deepEqual(await ids('active'), [s.id]);
    assert.deepEqual(await ids('suspended'), []);
    assert.deepEqual(await ids('active', other.key), []);
  });

  test('a test key works through v1 (sandbox) and says so in X-Sandbox', async () => {
    const sb = await createCustomer(t, { isTest: true });
    const res = await v1(t.app, 'GET', '/v1/servers', { key: sb.key });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-sandbox'], 'true');
    assert.deepEqual(json(res).data, []);
  });
});

describe('POST /v1/servers/{server_id}/start|stop|restart', () => {
  test('another account\'s server and an unknown id → 404 NOT_FOUND; a pending server → 422 STATE_CONFLICT', async () => {
    const s = await createServer(t, c);
    for (const verb of ['start', 'stop', 'restart']) {
      const err = expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/${verb}`, { key: other.key }), 404, 'NOT_FOUND');
      assert.equal(err.details.reason, 'RESOURCE_NOT_FOUND');
      expectV1Error(await v1(t.app, 'POST', `/v1/servers/srv_nope/${verb}`, { key: c.key }), 404, 'NOT_FOUND');
      expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/${verb}`, { key: c.key }), 422, 'STATE_CONFLICT');
    }
  });

  test('an unknown body field → 422 naming it', async () => {
    const s = await createServer(t, c);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/stop`, { key: c.key, body: { force: true } }), 422, 'VALIDATION_FAILED', ['force']);
  });
});
