// GET /v2/account, /v2/account/api-keys, /v2/account/ip-allowlist: exact shapes, no secrets,
// and each customer (and each key) sees only its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const API_KEY_FIELDS = ['created_at', 'id', 'ip_allowlist', 'is_test', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes', 'status', 'sub_user_id'];

test('GET /v2/account: the profile of the caller, with balance and no secrets', async () => {
  const made = await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'Ada@Example.com', name: 'Ada Lovelace', company: 'Engines Ltd', phone: '+44 20 7946 0000', country: 'gb' });
  assert.equal(made.statusCode, 201, made.body);
  const accountId = json(made).data.id;
  assert.equal((await adminCall(t, 'POST', `/admin/v1/accounts/${accountId}/deposits`, { amount: '42.07' })).statusCode, 201);
  const k = json(await adminCall(t, 'POST', `/admin/v1/accounts/${accountId}/api-keys`, { name: 'ci', ip_allowlist: ['127.0.0.1'] })).data;

  const res = await call(t.app, 'GET', '/v2/account', { key: k.key });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(Object.keys(body.meta).sort(), ['request_id', 'version']);
  assert.equal(body.meta.version, '2.0.0');
  const a = body.data;
  assert.deepEqual(Object.keys(a).sort(), ['balance', 'company', 'country', 'created_at', 'email', 'id', 'name', 'phone', 'status']);
  assert.equal(a.id, accountId);
  assert.equal(a.email, 'Ada@Example.com');
  assert.equal(a.name, 'Ada Lovelace');
  assert.equal(a.company, 'Engines Ltd');
  assert.equal(a.phone, '+44 20 7946 0000');
  assert.equal(a.country, 'GB');
  assert.equal(a.status, 'active');
  assert.deepEqual(a.balance, { amount: '42.07', currency: 'USD' });
  assert.match(a.created_at, TS);

  const hash = (await db.selectFrom('api_keys').select('key_hash').where('id', '=', k.id).executeTakeFirstOrThrow()).key_hash;
  assert.ok(!res.body.includes(k.key), 'the key is never echoed');
  assert.ok(!res.body.includes(hash), 'nor its hash');
});

test('GET /v2/account: optional profile fields are null, not missing', async () => {
  const c = await createCustomer(t);
  const a = json(await call(t.app, 'GET', '/v2/account', { key: c.key })).data;
  assert.equal(a.id, c.accountId);
  assert.equal(a.company, null);
  assert.equal(a.phone, null);
  assert.equal(a.country, null);
  assert.deepEqual(a.balance, { amount: '0.00', currency: 'USD' });
});

test('GET /v2/account/api-keys: metadata of the account keys, prefix only, never the key or its hash', async () => {
  const c = await createCustomer(t);
  const second = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, {
    name: 'deploy bot', ip_allowlist: ['10.0.0.5/8', '2001:db8::1'], scopes: ['servers:read', 'billing:read'],
  })).data;
  const test = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1'], is_test: true })).data;
  assert.equal((await adminCall(t, 'DELETE', `/admin/v1/api-keys/${second.id}`)).statusCode, 200);
  const other = await createCustomer(t);

  const res = await call(t.app, 'GET', '/v2/account/api-keys', { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 3, total_pages: 1 });
  const keys = body.data;
  assert.deepEqual(keys.map((k: { id: string }) => k.id), [c.keyId, second.id, test.id], 'oldest first, own keys only');
  for (const k of keys) {
    assert.deepEqual(Object.keys(k).sort(), API_KEY_FIELDS);
    assert.match(k.created_at, TS);
    assert.equal(typeof k.prefix, 'string');
    assert.ok(k.prefix.length >= 8 && k.prefix.length <= 16, 'a short prefix, far from the whole key');
  }
  const [first, bot, sandbox] = keys;
  assert.ok(c.key.startsWith(first.prefix));
  assert.equal(first.status, 'active');
  assert.equal(first.scopes, null, 'no list = every scope');
  assert.equal(first.is_test, false);
  assert.equal(first.revoked_at, null);
  assert.deepEqual(first.ip_allowlist, ['127.0.0.1/32', '::1/128']);

  assert.equal(bot.name, 'deploy bot');
  assert.equal(bot.status, 'revoked');
  assert.match(bot.revoked_at, TS);
  assert.deepEqual(bot.scopes, ['servers:read', 'billing:read']);
  assert.deepEqual(bot.ip_allowlist, ['10.0.0.0/8', '2001:db8::1/128']);
  assert.ok(second.key.startsWith(bot.prefix));

  assert.equal(sandbox.is_test, true);
  assert.ok(sandbox.prefix.startsWith('hc_test_'));

  const hashes = await db.selectFrom('api_keys').select('key_hash').where('account_id', '=', c.accountId).execute();
  for (const secret of [c.key, second.key, test.key]) assert.ok(!res.body.includes(secret), 'no key value');
  for (const h of hashes) assert.ok(!res.body.includes(h.key_hash), 'no key hash');
  assert.ok(!res.body.includes(other.keyId), "another customer's keys are not listed");
  assert.ok(!/"(key|key_hash|hash|secret)"/.test(res.body));
});

test('GET /v2/account/api-keys pages, and rejects bad page values', async () => {
  const c = await createCustomer(t);
  for (let i = 0; i < 2; i++) await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: `k${i}`, ip_allowlist: ['127.0.0.1'] });
  const p2 = json(await call(t.app, 'GET', '/v2/account/api-keys', { key: c.key, query: { page: '2', per_page: '2' } }));
  assert.equal(p2.data.length, 1);
  assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 2, total: 3, total_pages: 2 });
  const past = json(await call(t.app, 'GET', '/v2/account/api-keys', { key: c.key, query: { page: '3', per_page: '2' } }));
  assert.deepEqual(past.data, []);
  assert.deepEqual(past.meta.pagination, { page: 3, per_page: 2, total: 3, total_pages: 2 });
  const bad = await call(t.app, 'GET', '/v2/account/api-keys', { key: c.key, query: { per_page: '101' } });
  assert.equal(bad.statusCode, 422);
  assert.equal(json(bad).error.errors[0].field, 'per_page');
});

test('GET /v2/account/ip-allowlist: the entries of the calling key only', async () => {
  const c = await createCustomer(t, { ipAllowlist: ['203.0.113.0/24', '127.0.0.1', '::1', '2001:db8::/32'] });
  const sibling = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'other', ip_allowlist: ['127.0.0.0/8', '198.51.100.7'] })).data;

  const res = await call(t.app, 'GET', '/v2/account/ip-allowlist', { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.data, [
    { cidr: '203.0.113.0/24', version: 4 },
    { cidr: '127.0.0.1/32', version: 4 },
    { cidr: '::1/128', version: 6 },
    { cidr: '2001:db8::/32', version: 6 },
  ]);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 4, total_pages: 1 });

  const mine = json(await call(t.app, 'GET', '/v2/account/ip-allowlist', { key: sibling.key })).data;
  assert.deepEqual(mine, [{ cidr: '127.0.0.0/8', version: 4 }, { cidr: '198.51.100.7/32', version: 4 }]);

  const paged = json(await call(t.app, 'GET', '/v2/account/ip-allowlist', { key: c.key, query: { page: '2', per_page: '3' } }));
  assert.deepEqual(paged.data, [{ cidr: '2001:db8::/32', version: 6 }]);
  assert.deepEqual(paged.meta.pagination, { page: 2, per_page: 3, total: 4, total_pages: 2 });
  const past = json(await call(t.app, 'GET', '/v2/account/ip-allowlist', { key: c.key, query: { page: '9' } }));
  assert.deepEqual(past.data, []);
  assert.equal(past.meta.pagination.total, 4);
  const bad = await call(t.app, 'GET', '/v2/account/ip-allowlist', { key: c.key, query: { page: 'x' } });
  assert.equal(bad.statusCode, 422);
  assert.equal(json(bad).error.errors[0].field, 'page');
});

test('account reads need a valid key from an allowed IP', async () => {
  const c = await createCustomer(t);
  for (const url of ['/v2/account', '/v2/account/api-keys', '/v2/account/ip-allowlist']) {
    const none = await call(t.app, 'GET', url);
    assert.equal(none.statusCode, 401, url);
    assert.equal(json(none).error.code, 'AUTH_REQUIRED');
    const bad = await call(t.app, 'GET', url, { key: `hc_live_${'x'.repeat(40)}` });
    assert.equal(bad.statusCode, 401);
    assert.equal(json(bad).error.code, 'AUTH_INVALID');
    const ip = await call(t.app, 'GET', url, { key: c.key, ip: '192.0.2.99' });
    assert.equal(ip.statusCode, 403);
    assert.equal(json(ip).error.code, 'AUTH_IP_NOT_ALLOWED');
    assert.ok(!ip.body.includes('127.0.0.1'), 'a refused caller does not learn the allowlist');
  }
});
