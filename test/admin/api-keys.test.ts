// Admin API keys: issue (secret shown once, allowlist normalised, scopes), revoke.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { adminCall, call, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

type Res = Awaited<ReturnType<typeof call>>;

function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  const { error } = json(res);
  assert.equal(error.code, 'VALIDATION_FAILED');
  assert.deepEqual((error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
}

async function newAccount(): Promise<string> {
  const res = await adminCall(t, 'POST', '/admin/v1/accounts', { email: `k-${randomBytes(5).toString('hex')}@example.com`, name: 'Key Holder' });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id;
}

async function newKey(accountId: string, body: Record<string, unknown> = {}) {
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${accountId}/api-keys`, { name: 'ci', ip_allowlist: ['127.0.0.1'], ...body });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

test('POST /accounts/:id/api-keys → 201 metadata plus the secret', async () => {
  const acc = await newAccount();
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${acc}/api-keys`, { name: 'deploy bot', ip_allowlist: ['127.0.0.1'] });
  assert.equal(res.statusCode, 201, res.body);
  const k = json(res).data;
  assert.match(k.key, /^hc_live_[0-9A-Za-z]{40}$/);
  assert.equal(k.prefix, k.key.slice(0, 12));
  assert.match(k.id, /^key_/);
  assert.equal(k.name, 'deploy bot');
  assert.equal(k.is_test, false);
  assert.equal(k.scopes, null);
  assert.deepEqual(k.ip_allowlist, ['127.0.0.1/32']);
  assert.equal(k.status, 'active');
  assert.equal(k.last_used_at, null);
  assert.equal(k.revoked_at, null);
  assert.match(k.created_at, TIMESTAMP);
  assert.equal(k.sub_user_id, null, "the account's own key");
  assert.deepEqual(Object.keys(k).sort(), ['created_at', 'id', 'ip_allowlist', 'is_test', 'key', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes', 'status', 'sub_user_id']);
  // It works at once, from an allowed address.
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key });
  assert.equal(bal.statusCode, 200, bal.body);
  // Two keys never share a secret.
  const other = await newKey(acc);
  assert.notEqual(other.key, k.key);
});

test('the allowlist is stored normalised (CIDR network, /32 and /128, IPv4-mapped as IPv4, duplicates once)', async () => {
  const acc = await newAccount();
  const k = await newKey(acc, {
    ip_allowlist: ['127.0.0.1', '10.1.2.3/8', '2001:db8::1', '2001:DB8:0::/32', ' 192.0.2.7 ', '::ffff:198.51.100.1', '127.0.0.1/32'],
  });
  assert.deepEqual(k.ip_allowlist, ['127.0.0.1/32', '10.0.0.0/8', '2001:db8::1/128', '2001:db8::/32', '192.0.2.7/32', '198.51.100.1/32']);
});

test('the allowlist is enforced: an address outside it gets 403 AUTH_IP_NOT_ALLOWED', async () => {
  const acc = await newAccount();
  const k = await newKey(acc, { ip_allowlist: ['10.1.2.3/8', '2001:db8::1'] });
  const inside = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key, ip: '10.200.0.1' });
  assert.equal(inside.statusCode, 200, inside.body);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: k.key, ip: '2001:db8::1' })).statusCode, 200);
  const outside = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key, ip: '11.0.0.1' });
  assert.equal(outside.statusCode, 403);
  assert.equal(json(outside).error.code, 'AUTH_IP_NOT_ALLOWED');
});

test('is_test: true issues an hc_test_ key that runs in the sandbox', async () => {
  const acc = await newAccount();
  const k = await newKey(acc, { is_test: true });
  assert.match(k.key, /^hc_test_[0-9A-Za-z]{40}$/);
  assert.equal(k.prefix, k.key.slice(0, 12));
  assert.equal(k.is_test, true);
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key });
  assert.equal(bal.statusCode, 200, bal.body);
  assert.equal(json(bal).meta.sandbox, true);
  const live = await newKey(acc, { is_test: false });
  assert.match(live.key, /^hc_live_/);
});

test('POST api-keys validation: ip_allowlist required, non-empty, each entry an IP or CIDR', async () => {
  const acc = await newAccount();
  const url = `/admin/v1/accounts/${acc}/api-keys`;
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x' }), ['ip_allowlist']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: [] }), ['ip_allowlist']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: '127.0.0.1' }), ['ip_allowlist']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: ['999.1.1.1'] }), ['ip_allowlist[0]']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: ['127.0.0.1', '1.2.3.4/33', 'abc'] }), ['ip_allowlist[1]', 'ip_allowlist[2]']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: ['127.1'] }), ['ip_allowlist[0]']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: ['2001:db8::/129'] }), ['ip_allowlist[0]']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: [''] }), ['ip_allowlist[0]']);
  assertInvalid(await adminCall(t, 'POST', url, { name: 'x', ip_allowlist: [42] }), ['ip_allowlist[0]']);
  // No key was issued by any of them.
  const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [acc]);
  assert.equal(rows[0].n, 0);
});

test('POST api-keys validation: name, is_test, scopes, unknown fields', async () => {
  const acc = await newAccount();
  const url = `/admin/v1/accounts/${acc}/api-keys`;
  const ok = { name: 'x', ip_allowlist: ['127.0.0.1'] };
  assertInvalid(await adminCall(t, 'POST', url, { ip_allowlist: ['127.0.0.1'] }), ['name']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok, name: '' }), ['name']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok, is_test: 'yes' }), ['is_test']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok, scopes: ['servers:admin'] }), ['scopes[0]']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok, scopes: ['billing:read', 'nope'] }), ['scopes[1]']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok, scopes: 'billing:read' }), ['scopes']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok, secret: 'hc_live_mine' }), ['secret']);
  assertInvalid(await adminCall(t, 'POST', url, { name: '', ip_allowlist: [], scopes: ['x'] }), ['name', 'ip_allowlist', 'scopes[0]']);
});

test('scopes are stored and enforced', async () => {
  const acc = await newAccount();
  const k = await newKey(acc, { scopes: ['billing:read', 'account:read', 'billing:read'] });
  assert.deepEqual(k.scopes, ['billing:read', 'account:read']);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: k.key })).statusCode, 200);
  const denied = await call(t.app, 'GET', '/v2/plans', { key: k.key });
  assert.equal(denied.statusCode, 403);
  assert.equal(json(denied).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  // The customer sees the same scopes in the key's metadata.
  const list = json(await call(t.app, 'GET', '/v2/account/api-keys', { key: k.key }));
  assert.deepEqual(list.data[0].scopes, ['billing:read', 'account:read']);
});

test('the secret is never shown again', async () => {
  const acc = await newAccount();
  const k = await newKey(acc, { ip_allowlist: ['127.0.0.1', '::1'] });
  const second = await newKey(acc);
  const list = await call(t.app, 'GET', '/v2/account/api-keys', { key: k.key });
  assert.equal(list.statusCode, 200, list.body);
  const body = json(list);
  assert.equal(body.data.length, 2);
  assert.equal(body.meta.pagination.total, 2);
  const mine = body.data.find((x: { id: string }) => x.id === k.id);
  assert.deepEqual(mine.ip_allowlist, ['127.0.0.1/32', '::1/128']);
  assert.equal(mine.prefix, k.key.slice(0, 12));
  for (const item of body.data) assert.equal('key' in item, false);
  // Neither secret, nor anything past its prefix, appears anywhere in the later responses.
  for (const secret of [k.key, second.key]) {
    assert.equal(list.body.includes(secret.slice(12)), false);
    assert.equal(list.body.includes(secret.slice(8, 30)), false);
  }
  const revoked = await adminCall(t, 'DELETE', `/admin/v1/api-keys/${second.id}`);
  assert.equal(revoked.body.includes(second.key.slice(12)), false);
  assert.equal('key' in json(revoked).data, false);
  // Only a hash is at rest.
  const { rows } = await t.database.pool.query('SELECT key_hash FROM api_keys WHERE id = $1', [k.id]);
  assert.notEqual(rows[0].key_hash, k.key);
  assert.match(rows[0].key_hash, /^[0-9a-f]{64}$/);
});

test('DELETE /api-keys/:id revokes: the key then gets 401 AUTH_INVALID; others keep working', async () => {
  const acc = await newAccount();
  const k = await newKey(acc);
  const other = await newKey(acc);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: k.key })).statusCode, 200);
  const res = await adminCall(t, 'DELETE', `/admin/v1/api-keys/${k.id}`);
  assert.equal(res.statusCode, 200, res.body);
  const meta = json(res).data;
  assert.equal(meta.id, k.id);
  assert.equal(meta.status, 'revoked');
  assert.match(meta.revoked_at, TIMESTAMP);
  const after = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key });
  assert.equal(after.statusCode, 401);
  assert.equal(json(after).error.code, 'AUTH_INVALID');
  assert.match(json(after).error.doc_url, /#AUTH_INVALID$/);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: other.key })).statusCode, 200);
  // Revoking again is harmless and keeps the first revocation time.
  const again = await adminCall(t, 'DELETE', `/admin/v1/api-keys/${k.id}`);
  assert.equal(again.statusCode, 200);
  assert.equal(json(again).data.revoked_at, meta.revoked_at);
  // The customer still sees the revoked key's metadata.
  const list = json(await call(t.app, 'GET', '/v2/account/api-keys', { key: other.key }));
  assert.equal(list.data.find((x: { id: string }) => x.id === k.id).status, 'revoked');
});

test('DELETE /api-keys/:id unknown → 404', async () => {
  const res = await adminCall(t, 'DELETE', '/admin/v1/api-keys/key_doesnotexist');
  assert.equal(res.statusCode, 404);
  assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
});

test('POST api-keys for an unknown account → 404, nothing stored', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/accounts/acc_nobody/api-keys', { name: 'x', ip_allowlist: ['127.0.0.1'] });
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  const { rows } = await t.database.pool.query("SELECT count(*)::int AS n FROM api_keys WHERE account_id = 'acc_nobody'");
  assert.equal(rows[0].n, 0);
});
