// Authentication and authorization, checked in one fixed order (key, IP, account, scope), and key secrecy.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp();
  c = await createCustomer(t, { deposit: '5.00' });
});

function code(res: { body: string }) {
  return JSON.parse(res.body).error?.code;
}

describe('missing or invalid key', () => {
  test('no Authorization → 401 AUTH_REQUIRED', async () => {
    const res = await call(t.app, 'GET', '/v2/account');
    assert.equal(res.statusCode, 401);
    assert.equal(code(res), 'AUTH_REQUIRED');
  });

  test('?api_key= is not a fallback in v2 → 401 AUTH_REQUIRED saying so', async () => {
    const res = await call(t.app, 'GET', `/v2/account?api_key=${c.key}`);
    assert.equal(res.statusCode, 401);
    assert.equal(code(res), 'AUTH_REQUIRED');
    assert.match(json(res).error.message, /api_key/);
  });

  test('X-API-Key (the v1 header) does not authenticate v2, and the message says what does', async () => {
    const res = await call(t.app, 'GET', '/v2/account', { headers: { 'x-api-key': c.key } });
    assert.equal(res.statusCode, 401);
    assert.equal(code(res), 'AUTH_REQUIRED');
    assert.equal(json(res).error.message, 'X-API-Key is the v1 header; in v2 send the key as Authorization: Bearer <API_KEY>');
    const none = await call(t.app, 'GET', '/v2/account');
    assert.equal(json(none).error.message, 'No API key was sent; send the key as Authorization: Bearer <API_KEY>');
  });

  for (const [name, header, message] of [
    ['Authorization: Token …', `Token ${'k'.repeat(40)}`, 'The Authorization scheme "Token" is not supported; send the key as Authorization: Bearer <API_KEY>'],
    ['a bare key without Bearer', `hc_live_${'A'.repeat(40)}`, 'The Authorization header has no scheme; send the key as Authorization: Bearer <API_KEY>'],
    ['Bearer with two words', 'Bearer one two', 'Bearer takes exactly one key; send the key as Authorization: Bearer <API_KEY>'],
    ['an empty Bearer', 'Bearer', 'The Bearer token is empty; send the key as Authorization: Bearer <API_KEY>'],
  ] as const) {
    test(`${name} → 401 AUTH_INVALID saying how to send the key, never echoing it`, async () => {
      const res = await call(t.app, 'GET', '/v2/account', { headers: { authorization: header } });
      assert.equal(res.statusCode, 401);
      assert.equal(code(res), 'AUTH_INVALID');
      assert.equal(json(res).error.message, message);
      assert.ok(!res.body.includes('A'.repeat(40)) && !res.body.includes('k'.repeat(40)), 'the key is not echoed');
    });
  }

  for (const [name, header] of [
    ['garbage token', 'Bearer nonsense'],
    ['unknown well-formed key', `Bearer hc_live_${'A'.repeat(40)}`],
    ['other scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['empty bearer', 'Bearer '],
  ] as const) {
    test(`${name} → 401 AUTH_INVALID`, async () => {
      const res = await call(t.app, 'GET', '/v2/account', { headers: { authorization: header } });
      assert.equal(res.statusCode, 401);
      assert.equal(code(res), 'AUTH_INVALID');
    });
  }

  test('the scheme is case-insensitive', async () => {
    const res = await call(t.app, 'GET', '/v2/account', { headers: { authorization: `bearer ${c.key}` } });
    assert.equal(res.statusCode, 200);
  });

  test('a revoked key → 401 AUTH_INVALID', async () => {
    const k = await createCustomer(t);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key })).statusCode, 200);
    assert.equal((await adminCall(t, 'DELETE', `/admin/v1/api-keys/${k.keyId}`)).statusCode, 200);
    const res = await call(t.app, 'GET', '/v2/account', { key: k.key });
    assert.equal(res.statusCode, 401);
    assert.equal(code(res), 'AUTH_INVALID');
  });
});

describe('IP allowlist', () => {
  test('IPv4 CIDR: inside allowed, outside 403 AUTH_IP_NOT_ALLOWED', async () => {
    const k = await createCustomer(t, { ipAllowlist: ['203.0.113.0/24'] });
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '203.0.113.200' })).statusCode, 200);
    const res = await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '203.0.114.1' });
    assert.equal(res.statusCode, 403);
    assert.equal(code(res), 'AUTH_IP_NOT_ALLOWED');
    const local = await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '127.0.0.1' });
    assert.equal(code(local), 'AUTH_IP_NOT_ALLOWED');
  });

  test('single IPv4 address and its IPv4-mapped IPv6 form', async () => {
    const k = await createCustomer(t, { ipAllowlist: ['198.51.100.7'] });
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '198.51.100.7' })).statusCode, 200);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '::ffff:198.51.100.7' })).statusCode, 200);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '198.51.100.8' })).statusCode, 403);
  });

  test('IPv6 CIDR and single address', async () => {
    const k = await createCustomer(t, { ipAllowlist: ['2001:db8:1::/48', '2001:db8:ffff::42'] });
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '2001:db8:1:2::9' })).statusCode, 200);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '2001:db8:ffff::42' })).statusCode, 200);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '2001:db8:2::1' })).statusCode, 403);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '203.0.113.1' })).statusCode, 403);
  });

  test('X-Forwarded-For is ignored unless TRUST_PROXY names the peer', async () => {
    const k = await createCustomer(t, { ipAllowlist: ['203.0.113.0/24'] });
    const spoof = await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(code(spoof), 'AUTH_IP_NOT_ALLOWED', 'without TRUST_PROXY the header must not count');

    const proxied = await t.sibling({ trustProxy: ['127.0.0.1'] });
    const ok = await call(proxied, 'GET', '/v2/account', { key: k.key, ip: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(ok.statusCode, 200);
    const untrustedPeer = await call(proxied, 'GET', '/v2/account', { key: k.key, ip: '198.51.100.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(code(untrustedPeer), 'AUTH_IP_NOT_ALLOWED', 'only the named proxy may speak for the client');
    // A client that prepends an allowed address of its own: the proxy appended the real one.
    const chain = await call(proxied, 'GET', '/v2/account', { key: k.key, ip: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } });
    assert.equal(code(chain), 'AUTH_IP_NOT_ALLOWED', 'only the address the trusted proxy saw counts');
  });
});

describe('account status and scopes', () => {
  test('suspended or closed account → 403 ACCOUNT_INACTIVE; active again → 200', async () => {
    const k = await createCustomer(t);
    for (const status of ['suspended', 'closed']) {
      assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${k.accountId}`, { status })).statusCode, 200);
      const res = await call(t.app, 'GET', '/v2/account', { key: k.key });
      assert.equal(res.statusCode, 403);
      assert.equal(code(res), 'ACCOUNT_INACTIVE');
    }
    await adminCall(t, 'PATCH', `/admin/v1/accounts/${k.accountId}`, { status: 'active' });
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: k.key })).statusCode, 200);
  });

  test('scopes: GET needs <area>:read, other methods <area>:write', async () => {
    const k = await createCustomer(t, { scopes: ['billing:read'] });
    assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: k.key })).statusCode, 200);
    const other = await call(t.app, 'GET', '/v2/account', { key: k.key });
    assert.equal(other.statusCode, 403);
    assert.equal(code(other), 'AUTH_SCOPE_INSUFFICIENT');
    const write = await call(t.app, 'POST', '/v2/billing/deposits', { key: k.key, body: {} });
    assert.equal(code(write), 'AUTH_SCOPE_INSUFFICIENT', 'a write needs billing:write even on a 501 endpoint');
  });

  test('checks run in one order: key, IP, account, scope', async () => {
    const k = await createCustomer(t, { ipAllowlist: ['203.0.113.0/24'], scopes: ['billing:read'] });
    await adminCall(t, 'PATCH', `/admin/v1/accounts/${k.accountId}`, { status: 'suspended' });
    assert.equal(code(await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '10.0.0.1' })), 'AUTH_IP_NOT_ALLOWED');
    assert.equal(code(await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '203.0.113.1' })), 'ACCOUNT_INACTIVE');
    await adminCall(t, 'PATCH', `/admin/v1/accounts/${k.accountId}`, { status: 'active' });
    assert.equal(code(await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '203.0.113.1' })), 'AUTH_SCOPE_INSUFFICIENT');
    await adminCall(t, 'DELETE', `/admin/v1/api-keys/${k.keyId}`);
    assert.equal(code(await call(t.app, 'GET', '/v2/account', { key: k.key, ip: '10.0.0.1' })), 'AUTH_INVALID');
  });
});

describe('sandbox keys', () => {
  test('a test key marks responses meta.sandbox: true; a live key does not', async () => {
    const test = await createCustomer(t, { isTest: true });
    assert.match(test.key, /^hc_test_/);
    const res = json(await call(t.app, 'GET', '/v2/account', { key: test.key }));
    assert.equal(res.meta.sandbox, true);
    const list = json(await call(t.app, 'GET', '/v2/plans', { key: test.key }));
    assert.equal(list.meta.sandbox, true);
    const live = json(await call(t.app, 'GET', '/v2/account', { key: c.key }));
    assert.equal(live.meta.sandbox, undefined);
  });
});

describe('key secrecy', () => {
  test('the full key never appears in a response after creation, nor in any log line', async () => {
    const k = await createCustomer(t);
    const bodies = [
      await call(t.app, 'GET', '/v2/account', { key: k.key }),
      await call(t.app, 'GET', '/v2/account/api-keys', { key: k.key }),
      await call(t.app, 'GET', '/v2/account/ip-allowlist', { key: k.key }),
      await call(t.app, 'GET', `/v2/account?api_key=${k.key}`),
      await call(t.app, 'GET', `/v2/nowhere?api_key=${k.key}`, { key: k.key }),
      await adminCall(t, 'GET', `/admin/v1/accounts/${k.accountId}`),
    ].map((r) => r.body);
    const secret = k.key.slice(12);
    for (const b of bodies) assert.ok(!b.includes(secret), `response leaked the key: ${b}`);
    const logs = t.logs.join('');
    assert.ok(logs.includes('api_key=[REDACTED]'), 'the query key is logged redacted');
    assert.ok(!logs.includes(secret), 'a log line contains the key');
    assert.ok(!logs.includes(t.adminToken), 'a log line contains the admin token');
    const listed = JSON.parse(bodies[1]!).data;
    assert.equal(listed[0].prefix, k.key.slice(0, 12));
  });

  test('last_used_at is recorded', async () => {
    const k = await createCustomer(t);
    await call(t.app, 'GET', '/v2/account', { key: k.key });
    let seen = null;
    for (let i = 0; i < 20 && !seen; i++) {
      const row = await t.database.db.selectFrom('api_keys').select('last_used_at').where('id', '=', k.keyId).executeTakeFirstOrThrow();
      seen = row.last_used_at;
      if (!seen) await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(seen instanceof Date);
  });
});
