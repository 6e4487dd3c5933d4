// API keys in the panel: the admin API's core functions and messages; a sub-user manages its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, json, startApp } from '../helpers/app.ts';
import { signedInOwner, signedInSubUser } from '../helpers/panel.ts';

const t = await startApp();

test('create: the secret once (201, no-store), it works against /v2/billing/balance; list shows prefix and allowlist, never the secret', async () => {
  const o = await signedInOwner(t);
  const res = await o.client.request('POST', '/panel/api/api-keys', { name: 'deploy', ip_allowlist: ['127.0.0.1', '10.0.0.0/8'], scopes: ['billing:read'] });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  const key = json(res).data;
  assert.match(key.key, /^hc_live_[0-9A-Za-z]{40}$/);
  assert.equal(key.prefix, key.key.slice(0, 12));
  assert.deepEqual(key.ip_allowlist, ['127.0.0.1/32', '10.0.0.0/8']);
  assert.deepEqual(key.scopes, ['billing:read']);
  assert.equal(key.sub_user_id, null);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: key.key })).statusCode, 200);
  assert.equal((await call(t.app, 'GET', '/v2/servers', { key: key.key })).statusCode, 403, 'its scopes hold');
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: key.key, ip: '192.0.2.1' })).statusCode, 403, 'its allowlist holds');

  const test2 = json(await o.client.request('POST', '/panel/api/api-keys', { name: 'ci', ip_allowlist: ['::1'], is_test: true })).data;
  assert.match(test2.key, /^hc_test_/);
  const list = await o.client.request('GET', '/panel/api/api-keys');
  assert.equal(list.statusCode, 200);
  const rows = json(list).data;
  assert.deepEqual(rows.map((k: { name: string }) => k.name), ['test', 'deploy', 'ci']);
  assert.ok(!list.body.includes(key.key), 'no secret in the list');
  assert.ok(rows.every((k: Record<string, unknown>) => 'last_used_at' in k && 'prefix' in k && 'ip_allowlist' in k));
});

test('create: the admin API\'s rules and messages, next to each field', async () => {
  const o = await signedInOwner(t);
  const none = await o.client.request('POST', '/panel/api/api-keys', { name: 'x', ip_allowlist: [] });
  assert.equal(none.statusCode, 422);
  assert.deepEqual(json(none).error.errors, [{ field: 'ip_allowlist', code: 'INVALID', message: 'at least one IP address or CIDR range is required' }]);
  const bad = await o.client.request('POST', '/panel/api/api-keys', { name: 'x', ip_allowlist: ['127.0.0.1', 'nonsense'] });
  assert.deepEqual(json(bad).error.errors, [{ field: 'ip_allowlist[1]', code: 'INVALID', message: '"nonsense" is not an IP address or CIDR range' }]);
  const scope = await o.client.request('POST', '/panel/api/api-keys', { name: 'x', ip_allowlist: ['127.0.0.1'], scopes: ['servers:fly'] });
  assert.equal(scope.statusCode, 422);
  assert.match(json(scope).error.errors[0].field, /^scopes/);
  for (const body of [{ ip_allowlist: ['127.0.0.1'] }, { name: '', ip_allowlist: ['127.0.0.1'] }, { name: 'x', ip_allowlist: ['127.0.0.1'], sub_user_id: 1 }]) {
    const r = await o.client.request('POST', '/panel/api/api-keys', body);
    assert.equal(r.statusCode, 422, JSON.stringify(body));
  }
});

test('revoke: the key stops working (401); another account\'s key id is 404; CSRF missing is 403', async () => {
  const o = await signedInOwner(t);
  const other = await signedInOwner(t);
  const key = json(await o.client.request('POST', '/panel/api/api-keys', { name: 'gone', ip_allowlist: ['127.0.0.1'] })).data;
  assert.equal((await other.client.request('DELETE', `/panel/api/api-keys/${key.id}`)).statusCode, 404);
  assert.equal((await o.client.request('DELETE', `/panel/api/api-keys/${key.id}`, undefined, { csrf: false })).statusCode, 403);
  assert.equal((await o.client.request('DELETE', '/panel/api/api-keys/key_nothing')).statusCode, 404);
  const res = await o.client.request('DELETE', `/panel/api/api-keys/${key.id}`);
  assert.equal(res.statusCode, 200);
  assert.equal(json(res).data.status, 'revoked');
  const after = await call(t.app, 'GET', '/v2/billing/balance', { key: key.key });
  assert.equal(after.statusCode, 401);
  assert.equal(json(after).error.code, 'AUTH_INVALID');
  assert.equal((await other.client.request('GET', '/panel/api/api-keys')).body.includes(key.id), false);
});

test('a sub-user: its keys act for it (narrowed to its permissions), it lists and revokes only its own', async () => {
  const o = await signedInOwner(t);
  const sub = await signedInSubUser(o, ['servers:read']);
  const res = await sub.client.request('POST', '/panel/api/api-keys', { name: 'mine', ip_allowlist: ['127.0.0.1'] });
  assert.equal(res.statusCode, 201, res.body);
  const key = json(res).data;
  assert.equal(key.sub_user_id, sub.id);
  assert.equal((await call(t.app, 'GET', '/v2/servers', { key: key.key })).statusCode, 200);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: key.key })).statusCode, 403, 'beyond its permissions');
  assert.deepEqual(json(await sub.client.request('GET', '/panel/api/api-keys')).data.map((k: { id: string }) => k.id), [key.id]);
  assert.equal((await sub.client.request('DELETE', `/panel/api/api-keys/${o.keyId}`)).statusCode, 404, 'the owner\'s key is not its own');
  assert.ok(json(await o.client.request('GET', '/panel/api/api-keys')).data.some((k: { id: string }) => k.id === key.id), 'the owner sees every key');
  assert.equal((await o.client.request('DELETE', `/panel/api/api-keys/${key.id}`)).statusCode, 200, 'and may revoke it');
});
