// /v2/webhooks: endpoints with their secret shown once, the URL rules (https, public addresses only
// — SSRF — unless the operator allows otherwise), subscriptions, rotation, ping, the delivery log;
// scopes, another account's 404, bad input. Delivery itself: test/jobs/webhook-delivery.test.ts.
// URLs here are IP literals or localhost: nothing is resolved beyond this machine.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import type { Json } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;
/** A public address (TEST-NET addresses are reserved, so one of the real internet's); nothing is ever sent to it here. */
const PUBLIC = 'https://93.184.216.34/hooks/hostcloud';

before(async () => {
  t = await startApp();
  c = await createCustomer(t);
});

const post = (body: unknown, key = c.key) => call(t.app, 'POST', '/v2/webhooks', { key, body });

async function create(body: Record<string, unknown> = {}, key = c.key): Promise<Json> {
  const res = await post({ url: PUBLIC, ...body }, key);
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

function assertInvalid(res: { statusCode: number; body: string }, field: string, message?: RegExp) {
  assert.equal(res.statusCode, 422, res.body);
  const err = json(res as never).error;
  assert.equal(err.code, 'VALIDATION_FAILED');
  assert.deepEqual(err.errors.map((e: { field: string }) => e.field), [field]);
  if (message) assert.match(err.errors[0].message, message);
}

describe('create', () => {
  test('201: the endpoint with its secret (whsec_ and base64 of 32 bytes), every event by default, Location', async () => {
    const res = await post({ url: PUBLIC, description: '  Provisioning pipeline ' });
    assert.equal(res.statusCode, 201, res.body);
    const w = json(res).data;
    assert.match(w.id, /^whk_[0-9A-Za-z]{16}$/);
    assert.equal(w.url, PUBLIC);
    assert.deepEqual(w.events, ['*']);
    assert.equal(w.description, 'Provisioning pipeline');
    assert.equal(w.enabled, true);
    assert.equal(w.disabled_reason, null);
    assert.match(w.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(w.secret.slice(6), 'base64').length, 32);
    assert.equal(res.headers.location, `http://api.test/v2/webhooks/${w.id}`);
    // Never shown again.
    const got = json(await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: c.key })).data;
    assert.equal(got.secret, undefined);
    const { secret: _s, ...rest } = w;
    assert.deepEqual(got, rest);
  });

  test('subscriptions: types, families and *, each once; anything else → 422 naming events[i]', async () => {
    const w = await create({ events: ['server.*', 'operation.completed', 'server.*'] });
    assert.deepEqual(w.events, ['server.*', 'operation.completed']);
    assertInvalid(await post({ url: PUBLIC, events: ['server.exploded'] }), 'events[0]', /not an event type/);
    assertInvalid(await post({ url: PUBLIC, events: ['*', 'planet.*'] }), 'events[1]');
    assertInvalid(await post({ url: PUBLIC, events: [] }), 'events');
  });

  test('the URL is normalised and its fragment dropped; credentials in it, other schemes, garbage → 422 naming url', async () => {
    const w = await create({ url: 'https://93.184.216.34:8443/a/../hook?x=1#frag' });
    assert.equal(w.url, 'https://93.184.216.34:8443/hook?x=1');
    assertInvalid(await post({ url: 'https://user:pw@93.184.216.34/' }), 'url', /user name or password/);
    assertInvalid(await post({ url: 'ftp://93.184.216.34/' }), 'url', /https/);
    assertInvalid(await post({ url: 'http://93.184.216.34/' }), 'url', /must be an https URL/);
    assertInvalid(await post({ url: 'hooks.example.com/x' }), 'url', /absolute URL/);
    assertInvalid(await post({ url: `https://93.184.216.34/${'a'.repeat(2048)}` }), 'url');
  });

  test('SSRF: loopback, private, link-local, CGNAT, multicast and the like → 422 naming url, whatever their spelling', async () => {
    for (const [url, why] of [
      ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
      ['https://[::1]/', /loopback/],
      ['http://[::1]/', /https/],
      ['https://10.0.0.1/', /private/],
      ['https://192.168.1.20/', /private/],
      ['https://172.16.5.4/', /private/],
      ['https://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://100.64.0.1/', /carrier-grade NAT/],
      ['https://224.0.0.1/', /multicast/],
      ['https://[ff02::1]/', /multicast/],
      ['https://[fe80::1]/', /link-local/],
      ['https://[fd00::1]/', /unique local/],
      ['https://0.0.0.0/', /unspecified/],
      ['https://[::ffff:127.0.0.1]/', /loopback/],
      ['https://0x7f000001/', /loopback/],
      ['https://2130706433/', /loopback/],
      ['https://127.1/', /loopback/],
      ['https://[64:ff9b::a00:1]/', /reserved/],
      // IPv6 spellings of non-public IPv4 addresses: compatible, mapped, translated, 6to4, NAT64, Teredo.
      ['https://[::7f00:1]/', /127\.0\.0\.1/],
      ['https://[::a00:1]/', /10\.0\.0\.1/],
      ['https://[::a9fe:a9fe]/', /169\.254\.169\.254/],
      ['https://[::ffff:a9fe:a9fe]/', /link-local/],
      ['https://[::ffff:0:7f00:1]/', /127\.0\.0\.1|reserved/],
      ['https://[2002:a9fe:a9fe::1]/', /169\.254\.169\.254/],
      ['https://[64:ff9b::7f00:1]/', /127\.0\.0\.1/],
      ['https://[64:ff9b:1::a00:1]/', /reserved/],
      ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', /127\.0\.0\.1/],
      ['https://localhost/hook', /localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ] as const) {
      assertInvalid(await post({ url }), 'url', why);
    }
    const list = json(await call(t.app, 'GET', '/v2/webhooks', { key: c.key, query: { per_page: '100' } })).data;
    assert.ok(list.every((w: Json) => w.url.startsWith('https://93.184.216.34')), 'none of them was stored');
  });

  test('with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE the operator admits them (development, tests)', async () => {
    const open = await t.sibling({ webhookAllowHttp: true, webhookAllowPrivate: true });
    const res = await call(open, 'POST', '/v2/webhooks', { key: c.key, body: { url: 'http://127.0.0.1:9/hook' } });
    assert.equal(res.statusCode, 201, res.body);
    const onlyHttp = await t.sibling({ webhookAllowHttp: true });
    assertInvalid(await call(onlyHttp, 'POST', '/v2/webhooks', { key: c.key, body: { url: 'http://127.0.0.1:9/hook' } }), 'url', /loopback/);
    assert.equal((await call(onlyHttp, 'POST', '/v2/webhooks', { key: c.key, body: { url: 'http://93.184.216.34/hook' } })).statusCode, 201);
  });

  test('bad bodies: missing or wrong-typed url, unknown fields, a long description → 422 naming the field', async () => {
    assertInvalid(await post({}), 'url');
    assertInvalid(await post({ url: 42 }), 'url');
    assertInvalid(await post({ url: PUBLIC, secret: 'whsec_mine' }), 'secret');
    assertInvalid(await post({ url: PUBLIC, description: 'x'.repeat(501) }), 'description');
    assertInvalid(await post({ url: PUBLIC, events: 'server.created' }), 'events');
  });

  test('at most WEBHOOK_MAX_PER_ACCOUNT endpoints: the next is 422 QUOTA_EXCEEDED', async () => {
    const own = await createCustomer(t);
    for (let i = 0; i < 10; i++) await create({}, own.key);
    const res = await post({ url: PUBLIC }, own.key);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'QUOTA_EXCEEDED');
    assert.match(json(res).error.message, /at most 10/);
    // Concurrent creates cannot pass the limit together.
    const racer = await createCustomer(t);
    const results = await Promise.all(Array.from({ length: 14 }, () => post({ url: PUBLIC }, racer.key)));
    assert.equal(results.filter((r) => r.statusCode === 201).length, 10);
  });
});

describe('read, change, delete', () => {
  test('list: oldest first, paged, never a secret', async () => {
    const own = await createCustomer(t);
    const a = await create({ description: 'a' }, own.key);
    const b = await create({ description: 'b' }, own.key);
    const res = json(await call(t.app, 'GET', '/v2/webhooks', { key: own.key }));
    assert.deepEqual(res.data.map((w: Json) => w.id), [a.id, b.id]);
    assert.ok(res.data.every((w: Json) => w.secret === undefined));
    assert.deepEqual(res.meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
  });

  test('PATCH: url, events, description, enabled; a bad URL changes nothing', async () => {
    const w = await create();
    const patch = (body: unknown) => call(t.app, 'PATCH', `/v2/webhooks/${w.id}`, { key: c.key, body });
    const res = await patch({ url: 'https://93.184.216.34/v2', events: ['domain.*'], description: 'x' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.url, 'https://93.184.216.34/v2');
    assert.deepEqual(json(res).data.events, ['domain.*']);
    assertInvalid(await patch({ url: 'https://10.1.2.3/' }), 'url', /private/);
    assert.equal(json(await patch({ description: null })).data.description, null);
    const off = json(await patch({ enabled: false })).data;
    assert.equal(off.enabled, false);
    assert.equal(off.url, 'https://93.184.216.34/v2');
    assert.equal(json(await patch({ enabled: true })).data.enabled, true);
    assertInvalid(await patch({ enabled: 'yes' }), 'enabled');
    assertInvalid(await patch({ secret: 'x' }), 'secret');
  });

  test('re-enabling an endpoint the service disabled clears its reason and its failing days', async () => {
    const w = await create();
    await sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'It answered 410 Gone', failing_since = now() - interval '6 days' WHERE id = ${w.id}`.execute(t.database.db);
    const got = json(await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: c.key })).data;
    assert.equal(got.enabled, false);
    assert.equal(got.disabled_reason, 'It answered 410 Gone');
    const res = json(await call(t.app, 'PATCH', `/v2/webhooks/${w.id}`, { key: c.key, body: { enabled: true } })).data;
    assert.equal(res.enabled, true);
    assert.equal(res.disabled_reason, null);
    const row = await t.database.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', w.id).executeTakeFirstOrThrow();
    assert.equal(row.failing_since, null);
  });

  test('DELETE answers the endpoint as it was; it is gone after', async () => {
    const w = await create();
    const res = await call(t.app, 'DELETE', `/v2/webhooks/${w.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.id, w.id);
    assert.equal((await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: c.key })).statusCode, 404);
    assert.equal((await call(t.app, 'DELETE', `/v2/webhooks/${w.id}`, { key: c.key })).statusCode, 404);
  });

  test('rotate-secret: a new secret, shown once; the old one honoured 24 h more', async () => {
    const w = await create();
    const res = await call(t.app, 'POST', `/v2/webhooks/${w.id}/rotate-secret`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const r = json(res).data;
    assert.match(r.secret, /^whsec_/);
    assert.notEqual(r.secret, w.secret);
    const left = new Date(r.previous_secret_expires_at).getTime() - Date.now();
    assert.ok(left > 23.9 * 3_600_000 && left <= 24 * 3_600_000, `${left}`);
    const row = await t.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', w.id).executeTakeFirstOrThrow();
    assert.equal(row.secret, r.secret);
    assert.equal(row.previous_secret, w.secret);
  });
});

describe('ping and the delivery log', () => {
  test('ping: 202 with a pending delivery of a webhook.ping event, to this endpoint only', async () => {
    const own = await createCustomer(t);
    const a = await create({ events: ['*'] }, own.key);
    const b = await create({ events: ['*'] }, own.key);
    const res = await call(t.app, 'POST', `/v2/webhooks/${a.id}/ping`, { key: own.key });
    assert.equal(res.statusCode, 202, res.body);
    const d = json(res).data;
    assert.equal(d.event_type, 'webhook.ping');
    assert.equal(d.status, 'pending');
    assert.equal(d.attempt, 0);
    assert.equal(d.response_status, null);
    assert.match(d.event_id, /^evt_/);
    assert.ok(d.next_attempt_at);
    const log = json(await call(t.app, 'GET', `/v2/webhooks/${a.id}/deliveries`, { key: own.key })).data;
    assert.deepEqual(log, [d]);
    assert.deepEqual(json(await call(t.app, 'GET', `/v2/webhooks/${b.id}/deliveries`, { key: own.key })).data, []);
    // The event itself, with the endpoint (no secret) as its data.
    const ev = json(await call(t.app, 'GET', `/v2/events/${d.event_id}`, { key: own.key })).data;
    assert.equal(ev.type, 'webhook.ping');
    assert.deepEqual(ev.resource, { type: 'webhook', id: a.id });
    assert.equal(ev.data.id, a.id);
    assert.equal(ev.data.url, a.url);
    assert.equal(ev.data.secret, undefined);
  });

  test('events fan out to the enabled endpoints subscribed to them, in the transaction that writes them', async () => {
    const own = await createCustomer(t);
    const all = await create({ events: ['*'] }, own.key);
    const billing = await create({ events: ['billing.*'] }, own.key);
    const servers = await create({ events: ['server.created'] }, own.key);
    const off = await create({ events: ['*'] }, own.key);
    await call(t.app, 'PATCH', `/v2/webhooks/${off.id}`, { key: own.key, body: { enabled: false } });
    const dep = await call(t.app, 'POST', `/admin/v1/accounts/${own.accountId}/deposits`, { headers: { authorization: `Bearer ${t.adminToken}` }, body: { amount: '10.00' } });
    assert.equal(dep.statusCode, 201, dep.body);
    const count = async (id: string) => json(await call(t.app, 'GET', `/v2/webhooks/${id}/deliveries`, { key: own.key })).data.length;
    assert.equal(await count(all.id), 1);
    assert.equal(await count(billing.id), 1);
    assert.equal(await count(servers.id), 0);
    assert.equal(await count(off.id), 0);
  });

  test('disabling an endpoint fails its pending deliveries; a disabled endpoint cannot be pinged (409)', async () => {
    const w = await create();
    const d = json(await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key })).data;
    await call(t.app, 'PATCH', `/v2/webhooks/${w.id}`, { key: c.key, body: { enabled: false } });
    const [after] = json(await call(t.app, 'GET', `/v2/webhooks/${w.id}/deliveries`, { key: c.key, query: { status: 'failed' } })).data;
    assert.equal(after.id, d.id);
    assert.equal(after.error, 'The endpoint was disabled');
    assert.equal(after.next_attempt_at, null);
    const res = await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(json(res).error.code, 'STATE_CONFLICT');
  });

  test('the log filters by status and pages; a bad status → 422', async () => {
    const w = await create();
    await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key });
    assert.equal(json(await call(t.app, 'GET', `/v2/webhooks/${w.id}/deliveries`, { key: c.key, query: { status: 'succeeded' } })).data.length, 0);
    assert.equal(json(await call(t.app, 'GET', `/v2/webhooks/${w.id}/deliveries`, { key: c.key, query: { status: 'pending' } })).data.length, 1);
    assertInvalid(await call(t.app, 'GET', `/v2/webhooks/${w.id}/deliveries`, { key: c.key, query: { status: 'lost' } }), 'status');
  });
});

describe('who may', () => {
  test('another account\'s endpoint → 404 on every route; its deliveries too', async () => {
    const owner = await createCustomer(t);
    const w = await create({}, owner.key);
    const other = await createCustomer(t);
    for (const [method, url, body] of [
      ['GET', `/v2/webhooks/${w.id}`], ['PATCH', `/v2/webhooks/${w.id}`, { enabled: false }], ['DELETE', `/v2/webhooks/${w.id}`],
      ['POST', `/v2/webhooks/${w.id}/rotate-secret`], ['POST', `/v2/webhooks/${w.id}/ping`], ['GET', `/v2/webhooks/${w.id}/deliveries`],
    ] as const) {
      const res = await call(t.app, method, url, { key: other.key, ...(body ? { body } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
    }
    assert.deepEqual(json(await call(t.app, 'GET', '/v2/webhooks', { key: other.key })).data, []);
    assert.equal(json(await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: owner.key })).data.enabled, true, 'untouched');
  });

  test('webhooks:read reads; without webhooks:write every write is 403', async () => {
    const reader = await createCustomer(t, { scopes: ['webhooks:read'] });
    assert.equal((await call(t.app, 'GET', '/v2/webhooks', { key: reader.key })).statusCode, 200);
    for (const [method, url] of [['POST', '/v2/webhooks'], ['PATCH', '/v2/webhooks/whk_x'], ['DELETE', '/v2/webhooks/whk_x'],
      ['POST', '/v2/webhooks/whk_x/rotate-secret'], ['POST', '/v2/webhooks/whk_x/ping']] as const) {
      const res = await call(t.app, method, url, { key: reader.key, ...(method === 'POST' && url === '/v2/webhooks' ? { body: { url: PUBLIC } } : {}) });
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
      assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    }
    const none = await createCustomer(t, { scopes: ['servers:read'] });
    assert.equal((await call(t.app, 'GET', '/v2/webhooks', { key: none.key })).statusCode, 403);
    const writer = await createCustomer(t, { scopes: ['webhooks:write'] });
    assert.equal((await post({ url: PUBLIC }, writer.key)).statusCode, 201);
  });

  test('a test key works in the sandbox: answers as a live key would, nothing is kept', async () => {
    const sandbox = await createCustomer(t, { isTest: true });
    const res = await post({ url: PUBLIC }, sandbox.key);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(json(res).meta.sandbox, true);
    assert.deepEqual(json(await call(t.app, 'GET', '/v2/webhooks', { key: sandbox.key })).data, []);
  });
});
