// Who may call the admin API: only the holder of ADMIN_TOKEN, never a customer key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();

function assertAuthError(res: Awaited<ReturnType<typeof call>>, code: string) {
  assert.equal(res.statusCode, 401, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const { error } = json(res);
  assert.equal(error.code, code);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0);
  assert.deepEqual(error.errors, []);
  assert.match(error.request_id, /^req_/);
  assert.equal(error.request_id, res.headers['x-request-id']);
  assert.equal(error.doc_url, `http://api.test/v2/docs/errors#${code}`);
}

test('no Authorization header → 401 AUTH_REQUIRED on every admin route family', async () => {
  for (const [method, url] of [
    ['GET', '/admin/v1/accounts/acc_x'],
    ['POST', '/admin/v1/accounts'],
    ['DELETE', '/admin/v1/api-keys/key_x'],
    ['GET', '/admin/v1/plans'],
    ['PATCH', '/admin/v1/tld-prices/com'],
  ] as const) {
    const res = await call(t.app, method, url, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
    assertAuthError(res, 'AUTH_REQUIRED');
  }
});

test('a wrong admin token → 401 AUTH_INVALID with the full error envelope', async () => {
  const res = await call(t.app, 'GET', '/admin/v1/plans', { key: `${t.adminToken}x` });
  assertAuthError(res, 'AUTH_INVALID');
  assert.match(json(res).error.doc_url, /#AUTH_INVALID$/);
});

test('a malformed Authorization header (not Bearer) → 401 AUTH_INVALID', async () => {
  for (const authorization of [`Basic ${t.adminToken}`, 'Bearer', `Bearer ${t.adminToken} extra`, '']) {
    const res = await call(t.app, 'GET', '/admin/v1/plans', { headers: { authorization } });
    assertAuthError(res, 'AUTH_INVALID');
  }
});

test('a customer API key is not an admin token', async () => {
  const c = await createCustomer(t);
  // The key itself works on the customer API…
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).statusCode, 200);
  // …but not on the admin API, not even for the customer's own account.
  const res = await call(t.app, 'GET', `/admin/v1/accounts/${c.accountId}`, { key: c.key });
  assertAuthError(res, 'AUTH_INVALID');
});

test('the admin token is not a customer API key', async () => {
  const res = await call(t.app, 'GET', '/v2/billing/balance', { key: t.adminToken });
  assert.equal(res.statusCode, 401);
  assert.equal(json(res).error.code, 'AUTH_INVALID');
});

test('the right token gets the v2 success envelope', async () => {
  const res = await adminCall(t, 'GET', '/admin/v1/plans');
  assert.equal(res.statusCode, 200);
  const body = json(res);
  assert.equal(body.meta.version, '2.0.0');
  assert.equal(body.meta.request_id, res.headers['x-request-id']);
  assert.ok(Array.isArray(body.data));
});

test('the admin API is not rate limited per IP like the customer API', async () => {
  const strict = await t.sibling({ rateLimitMax: 2 });
  for (let i = 0; i < 5; i++) {
    const res = await call(strict, 'GET', '/admin/v1/plans', { headers: { authorization: `Bearer ${t.adminToken}` } });
    assert.equal(res.statusCode, 200, `request ${i}: ${res.body}`);
  }
  // The customer API with the same limit does refuse by then (the limit is real).
  let last = 0;
  for (let i = 0; i < 4; i++) last = (await call(strict, 'GET', '/v2/plans', { key: 'hc_live_nope' })).statusCode;
  assert.equal(last, 429);
});
