// Panel-only writes answer 501 NOT_IMPLEMENTED, but only after authentication and
// the scope check, exactly like an implemented route. Also: which scope each read needs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const c = await createCustomer(t, { deposit: '10.00' });

type Method = NonNullable<InjectOptions['method']>;
const INVOICE_METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const PANEL_ONLY: [Method, string, unknown?][] = [
  ['POST', '/v2/sub-users', { email: 'sub@example.com', first_name: 'Sub', last_name: 'User' }],
  ['PATCH', '/v2/account', { name: 'New name' }],
  ['POST', '/v2/account/api-keys', { name: 'k', ip_allowlist: ['127.0.0.1'] }],
  ['DELETE', '/v2/account/api-keys/key_abc123'],
  ['POST', '/v2/account/ip-allowlist', { cidr: '198.51.100.0/24' }],
  ['DELETE', '/v2/account/ip-allowlist'],
  ['DELETE', '/v2/account/ip-allowlist/198.51.100.7'],
  ['DELETE', '/v2/account/ip-allowlist/198.51.100.0/24'],
  ['DELETE', '/v2/account/ip-allowlist/2001:db8::/32'],
  ['POST', '/v2/billing/deposits', { amount: '50.00' }],
  ...INVOICE_METHODS.map((m): [Method, string] => [m, '/v2/billing/invoices']),
  ...INVOICE_METHODS.map((m): [Method, string] => [m, '/v2/billing/invoices/inv_123']),
  ['GET', '/v2/billing/invoices/inv_123/pdf'],
  ['POST', '/v2/billing/invoices/inv_123/pay', {}],
];

test('every panel-only endpoint answers 501 NOT_IMPLEMENTED in the error envelope', async () => {
  for (const [method, url, body] of PANEL_ONLY) {
    const res = await call(t.app, method, url, { key: c.key, ...(body !== undefined ? { body } : {}) });
    const what = `${method} ${url}`;
    assert.equal(res.statusCode, 501, `${what}: ${res.body}`);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const b = json(res);
    assert.deepEqual(Object.keys(b), ['error'], what);
    assert.deepEqual(Object.keys(b.error).sort(), ['code', 'doc_url', 'errors', 'message', 'request_id'], what);
    assert.equal(b.error.code, 'NOT_IMPLEMENTED', what);
    assert.deepEqual(b.error.errors, []);
    assert.match(b.error.message, /panel/i);
    assert.equal(b.error.request_id, res.headers['x-request-id']);
    assert.equal(b.error.doc_url, 'http://api.test/v2/docs/errors#NOT_IMPLEMENTED');
  }
});

test('a panel-only endpoint does nothing: no deposit, no key, no profile change', async () => {
  const before = await t.database.db.selectFrom('accounts').selectAll().where('id', '=', c.accountId).executeTakeFirstOrThrow();
  const keysBefore = await t.database.db.selectFrom('api_keys').select('id').where('account_id', '=', c.accountId).execute();
  await call(t.app, 'POST', '/v2/billing/deposits', { key: c.key, body: { amount: '50.00' } });
  await call(t.app, 'POST', '/v2/account/api-keys', { key: c.key, body: { name: 'k', ip_allowlist: ['0.0.0.0/0'] } });
  await call(t.app, 'PATCH', '/v2/account', { key: c.key, body: { name: 'Changed' } });
  const after = await t.database.db.selectFrom('accounts').selectAll().where('id', '=', c.accountId).executeTakeFirstOrThrow();
  assert.equal(after.balance_cents, before.balance_cents);
  assert.equal(after.name, before.name);
  const keysAfter = await t.database.db.selectFrom('api_keys').select('id').where('account_id', '=', c.accountId).execute();
  assert.equal(keysAfter.length, keysBefore.length);
  assert.equal(json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key })).meta.pagination.total, 1);
});

test('without a key every panel-only endpoint is 401 AUTH_REQUIRED; with a bad key 401 AUTH_INVALID', async () => {
  for (const [method, url, body] of PANEL_ONLY) {
    const res = await call(t.app, method, url, body !== undefined ? { body } : {});
    assert.equal(res.statusCode, 401, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'AUTH_REQUIRED', `${method} ${url}`);
    const bad = await call(t.app, method, url, { key: `hc_live_${'0'.repeat(40)}`, ...(body !== undefined ? { body } : {}) });
    assert.equal(bad.statusCode, 401, `${method} ${url}`);
    assert.equal(json(bad).error.code, 'AUTH_INVALID', `${method} ${url}`);
  }
});

test('panel-only endpoints check the IP allowlist and the scope before answering 501', async () => {
  const ip = await call(t.app, 'POST', '/v2/billing/deposits', { key: c.key, ip: '192.0.2.1', body: { amount: '1.00' } });
  assert.equal(ip.statusCode, 403);
  assert.equal(json(ip).error.code, 'AUTH_IP_NOT_ALLOWED');

  const reader = await createCustomer(t, { scopes: ['billing:read', 'account:read', 'sub_users:read'] });
  for (const [method, url, body] of PANEL_ONLY) {
    if (method === 'GET') continue;
    const res = await call(t.app, method, url, { key: reader.key, ...(body !== undefined ? { body } : {}) });
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT', `${method} ${url}`);
  }
  const inv = await call(t.app, 'GET', '/v2/billing/invoices', { key: reader.key });
  assert.equal(inv.statusCode, 501, 'billing:read is enough to be told invoices are panel-only');

  const writer = await createCustomer(t, { scopes: ['billing:write', 'account:write', 'sub_users:write'] });
  assert.equal((await call(t.app, 'POST', '/v2/billing/deposits', { key: writer.key, body: { amount: '1.00' } })).statusCode, 501);
  assert.equal((await call(t.app, 'PATCH', '/v2/account', { key: writer.key, body: {} })).statusCode, 501);
  assert.equal((await call(t.app, 'POST', '/v2/sub-users', { key: writer.key, body: {} })).statusCode, 501);
  const noRead = await call(t.app, 'GET', '/v2/billing/invoices', { key: writer.key });
  assert.equal(noRead.statusCode, 403, 'GET needs :read even on a panel-only path');
});

test('scopes: a billing:read key reads the balance but not the catalog, and cannot write billing', async () => {
  const k = await createCustomer(t, { deposit: '3.00', scopes: ['billing:read'] });
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key });
  assert.equal(bal.statusCode, 200);
  assert.deepEqual(json(bal).data.balance, { amount: '3.00', currency: 'USD' });
  assert.equal((await call(t.app, 'GET', '/v2/billing/transactions', { key: k.key })).statusCode, 200);

  const refusals: [Method, string, unknown?][] = [
    ['GET', '/v2/plans'], ['GET', '/v2/plans/1'], ['GET', '/v2/packages'], ['GET', '/v2/operating-systems'],
    ['GET', '/v2/locations'], ['GET', '/v2/web-hosting-packages'], ['GET', '/v2/departments'],
    ['GET', '/v2/account'], ['GET', '/v2/account/api-keys'], ['GET', '/v2/account/ip-allowlist'],
    ['POST', '/v2/billing/deposits', { amount: '5.00' }],
  ];
  for (const [method, url, body] of refusals) {
    const res = await call(t.app, method, url, { key: k.key, ...(body !== undefined ? { body } : {}) });
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    const e = json(res).error;
    assert.equal(e.code, 'AUTH_SCOPE_INSUFFICIENT', `${method} ${url}`);
    assert.equal(e.doc_url, 'http://api.test/v2/docs/errors#AUTH_SCOPE_INSUFFICIENT');
  }
  assert.match(json(await call(t.app, 'GET', '/v2/plans', { key: k.key })).error.message, /catalog:read/);
  assert.match(json(await call(t.app, 'POST', '/v2/billing/deposits', { key: k.key, body: {} })).error.message, /billing:write/);
});

test('scopes: each read needs the scope of its area', async () => {
  const areas: [string, string[]][] = [
    ['catalog:read', ['/v2/plans', '/v2/plans/1', '/v2/packages', '/v2/operating-systems', '/v2/locations', '/v2/web-hosting-packages']],
    ['tickets:read', ['/v2/departments']],
    ['account:read', ['/v2/account', '/v2/account/api-keys', '/v2/account/ip-allowlist']],
    ['billing:read', ['/v2/billing/balance', '/v2/billing/transactions']],
  ];
  const keys = new Map<string, string>();
  for (const [scope] of areas) keys.set(scope, (await createCustomer(t, { scopes: [scope] })).key);
  for (const [scope, urls] of areas) {
    for (const url of urls) {
      for (const [other, key] of keys) {
        const res = await call(t.app, 'GET', url, { key });
        assert.equal(res.statusCode, other === scope ? 200 : 403, `${url} with ${other}: ${res.body}`);
      }
    }
  }
  // :write does not imply :read.
  const w = await createCustomer(t, { scopes: ['catalog:write'] });
  assert.equal((await call(t.app, 'GET', '/v2/plans', { key: w.key })).statusCode, 403);
});
