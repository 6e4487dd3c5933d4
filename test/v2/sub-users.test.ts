// Sub-users: the operator's invitation, the customer's list/detail/update/delete and permissions,
// and what a sub-user's API key may do (the intersection of its scopes and the permissions; nothing
// while the sub-user is not active; revoked with a deleted sub-user).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, test } from 'node:test';
import { verifyPassword } from '../../src/core/sub-users/password.ts';
import { createSubUser } from '../../src/core/sub-users/service.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const fields = (res: Parameters<typeof json>[0]) => json(res).error.errors.map((e: { field: string }) => e.field);

before(async () => {
  t = await startApp();
  c = await createCustomer(t, { deposit: '20.00' });
  other = await createCustomer(t);
});

async function invite(cust: Customer, body: Record<string, unknown> = {}) {
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${cust.accountId}/sub-users`, {
    email: `sub-${randomBytes(4).toString('hex')}@example.com`, first_name: 'Grace', last_name: 'Hopper', ...body,
  });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data as { id: number; email: string; status: string };
}

/** An API key of the sub-user, made by the operator. */
async function subUserKey(cust: Customer, subUserId: number, scopes?: string[]) {
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${cust.accountId}/api-keys`, {
    name: 'sub', ip_allowlist: ['127.0.0.1'], sub_user_id: subUserId, ...(scopes ? { scopes } : {}),
  });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data as { id: string; key: string; sub_user_id: number };
}

const patch = (cust: Customer, id: number, body: unknown) => call(t.app, 'PATCH', `/v2/sub-users/${id}`, { key: cust.key, body });
const setPermissions = (key: string, id: number, permissions: unknown) => call(t.app, 'PUT', `/v2/sub-users/${id}/permissions`, { key, body: { permissions } });

test('admin invite: 201 pending with no permissions; the email is unique among live sub-users of the account', async () => {
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, { email: 'grace@example.com', first_name: ' Grace ', last_name: 'Hopper' });
  assert.equal(res.statusCode, 201, res.body);
  const s = json(res).data;
  assert.deepEqual(Object.keys(s).sort(), ['created_at', 'email', 'first_name', 'id', 'last_name', 'permissions', 'phone', 'phone_country_code', 'status', 'updated_at']);
  assert.equal(typeof s.id, 'number');
  assert.equal(s.email, 'grace@example.com');
  assert.equal(s.first_name, 'Grace');
  assert.equal(s.status, 'pending');
  assert.deepEqual(s.permissions, []);
  assert.equal(s.phone, null);
  assert.match(s.created_at, TIMESTAMP);
  const dup = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, { email: 'GRACE@example.com', first_name: 'G', last_name: 'H' });
  assert.equal(dup.statusCode, 422);
  assert.deepEqual(fields(dup), ['email']);
  // Another account may invite the same person.
  assert.equal((await adminCall(t, 'POST', `/admin/v1/accounts/${other.accountId}/sub-users`, { email: 'grace@example.com', first_name: 'G', last_name: 'H' })).statusCode, 201);
  for (const [body, field] of [
    [{ email: 'not-an-email', first_name: 'a', last_name: 'b' }, 'email'],
    [{ email: 'x@example.com', first_name: '  ', last_name: 'b' }, 'first_name'],
    [{ email: 'x@example.com', first_name: 'a', last_name: 'b'.repeat(101) }, 'last_name'],
    [{ email: 'x@example.com', first_name: 'a', last_name: 'b', password: 'Secret-123' }, 'password'],
    [{ email: 'x@example.com', first_name: 'a\u0000', last_name: 'b' }, 'first_name'],
  ] as const) {
    const r = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, body);
    assert.equal(r.statusCode, 422, JSON.stringify(body));
    assert.ok(fields(r).includes(field), r.body);
  }
  assert.equal((await adminCall(t, 'POST', '/admin/v1/accounts/acc_nope/sub-users', { email: 'x@example.com', first_name: 'a', last_name: 'b' })).statusCode, 404);
});

test('v2 list: invitation order, status filter, paging; admin list too; another account sees none', async () => {
  const cust = await createCustomer(t);
  const s1 = await invite(cust);
  const s2 = await invite(cust);
  await patch(cust, s2.id, { status: 'active' });
  const all = json(await call(t.app, 'GET', '/v2/sub-users', { key: cust.key }));
  assert.deepEqual(all.data.map((s: { id: number }) => s.id), [s1.id, s2.id]);
  assert.deepEqual(Object.keys(all.data[0]).sort(), ['created_at', 'email', 'first_name', 'id', 'last_name', 'phone', 'phone_country_code', 'status', 'updated_at']);
  const active = json(await call(t.app, 'GET', '/v2/sub-users', { key: cust.key, query: { status: 'active' } }));
  assert.deepEqual(active.data.map((s: { id: number }) => s.id), [s2.id]);
  const p2 = json(await call(t.app, 'GET', '/v2/sub-users', { key: cust.key, query: { per_page: '1', page: '2' } }));
  assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 1, total: 2, total_pages: 2 });
  const bad = await call(t.app, 'GET', '/v2/sub-users', { key: cust.key, query: { status: 'deleted' } });
  assert.equal(bad.statusCode, 422);
  const adminList = json(await adminCall(t, 'GET', `/admin/v1/accounts/${cust.accountId}/sub-users?status=pending`));
  assert.deepEqual(adminList.data.map((s: { id: number }) => s.id), [s1.id]);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/accounts/acc_nope/sub-users')).statusCode, 404);
  const theirs = json(await call(t.app, 'GET', '/v2/sub-users', { key: other.key }));
  assert.ok(!theirs.data.some((s: { id: number }) => s.id === s1.id || s.id === s2.id));
});

test('detail and permissions: read, replace as a whole set, unknown names named by index', async () => {
  const s = await invite(c);
  const put = await setPermissions(c.key, s.id, ['tickets:write', 'servers:read', 'servers:read']);
  assert.equal(put.statusCode, 200, put.body);
  assert.deepEqual(json(put).data, { permissions: ['servers:read', 'tickets:write'] });
  const get = json(await call(t.app, 'GET', `/v2/sub-users/${s.id}/permissions`, { key: c.key }));
  assert.deepEqual(get.data, { permissions: ['servers:read', 'tickets:write'] });
  const detail = json(await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: c.key })).data;
  assert.deepEqual(detail.permissions, ['servers:read', 'tickets:write']);
  assert.equal(detail.id, s.id);
  const bad = await setPermissions(c.key, s.id, ['servers:read', 'servers:admin', 'billing']);
  assert.equal(bad.statusCode, 422);
  assert.deepEqual(fields(bad), ['permissions[1]', 'permissions[2]']);
  for (const body of [{}, { permissions: 'servers:read' }, { permissions: [1] }, { permissions: [], extra: true }, { permissions: ['servers:read\u0000'] }]) {
    const r = await call(t.app, 'PUT', `/v2/sub-users/${s.id}/permissions`, { key: c.key, body });
    assert.equal(r.statusCode, 422, JSON.stringify(body));
  }
  assert.deepEqual(json(await call(t.app, 'GET', `/v2/sub-users/${s.id}/permissions`, { key: c.key })).data.permissions, ['servers:read', 'tickets:write'], 'unchanged by refusals');
  const cleared = await setPermissions(c.key, s.id, []);
  assert.deepEqual(json(cleared).data, { permissions: [] });
});

test('update: names, phone, country code, status (pending → active allowed); email and password are 422 naming the field', async () => {
  const s = await invite(c);
  const res = await patch(c, s.id, { first_name: 'Ada', last_name: 'Lovelace', phone: '20 555 0142', phone_country_code: '+31', status: 'active' });
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.equal(d.first_name, 'Ada');
  assert.equal(d.last_name, 'Lovelace');
  assert.equal(d.phone, '20 555 0142');
  assert.equal(d.phone_country_code, '+31');
  assert.equal(d.status, 'active');
  assert.equal(d.email, s.email);
  assert.deepEqual(d.permissions, []);
  assert.equal(json(await patch(c, s.id, { status: 'inactive' })).data.status, 'inactive');
  const cases: [unknown, string][] = [
    [{ email: 'new@example.com' }, 'email'],
    [{ password: 'N3w-password!' }, 'password'],
    [{ status: 'pending' }, 'status'],
    [{ status: 'deleted' }, 'status'],
    [{ phone_country_code: '31' }, 'phone_country_code'],
    [{ phone_country_code: '+12345' }, 'phone_country_code'],
    [{ phone: 'call me maybe' }, 'phone'],
    [{ phone: '' }, 'phone'],
    [{ first_name: '' }, 'first_name'],
    [{ first_name: '   ' }, 'first_name'],
    [{ first_name: 5 }, 'first_name'],
    [{ last_name: 'x'.repeat(101) }, 'last_name'],
    [{ last_name: 'a\u0000b' }, 'last_name'],
    [{}, 'body'],
  ];
  for (const [body, field] of cases) {
    const r = await patch(c, s.id, body);
    assert.equal(r.statusCode, 422, `${JSON.stringify(body)}: ${r.body}`);
    assert.ok(fields(r).includes(field), `${field}: ${r.body}`);
  }
  assert.equal(json(await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: c.key })).data.first_name, 'Ada', 'unchanged by refusals');
});

test("another account's sub-user (and an unknown id) is 404 for every read, write and action", async () => {
  const s = await invite(c);
  const requests: [string, string, unknown][] = [
    ['GET', `/v2/sub-users/${s.id}`, undefined],
    ['PATCH', `/v2/sub-users/${s.id}`, { first_name: 'Eve' }],
    ['DELETE', `/v2/sub-users/${s.id}`, undefined],
    ['GET', `/v2/sub-users/${s.id}/permissions`, undefined],
    ['PUT', `/v2/sub-users/${s.id}/permissions`, { permissions: ['billing:read'] }],
  ];
  for (const [method, url, body] of requests) {
    const res = await call(t.app, method as 'GET', url, { key: other.key, body });
    assert.equal(res.statusCode, 404, `${method} ${url}`);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
    assert.ok(!res.body.includes(s.email));
    const unknown = await call(t.app, method as 'GET', url.replace(String(s.id), '2147483647'), { key: c.key, body });
    assert.equal(unknown.statusCode, 404);
  }
  const detail = json(await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: c.key })).data;
  assert.equal(detail.first_name, 'Grace', 'untouched');
  assert.equal((await call(t.app, 'GET', '/v2/sub-users/abc', { key: c.key })).statusCode, 422, 'ids are integers');
});

test('a key of a pending or inactive sub-user is refused for everything (403 AUTH_SCOPE_INSUFFICIENT)', async () => {
  const s = await invite(c);
  await setPermissions(c.key, s.id, ['billing:read', 'servers:read']);
  const k = await subUserKey(c, s.id);
  assert.equal(k.sub_user_id, s.id);
  for (const url of ['/v2/billing/balance', '/v2/servers', '/v2/plans']) {
    const res = await call(t.app, 'GET', url, { key: k.key });
    assert.equal(res.statusCode, 403, url);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    assert.match(json(res).error.message, new RegExp(`sub-user ${s.id} is pending`));
  }
  await patch(c, s.id, { status: 'active' });
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: k.key })).statusCode, 200, 'active: it works at once');
  await patch(c, s.id, { status: 'inactive' });
  const res = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key });
  assert.equal(res.statusCode, 403);
  assert.match(json(res).error.message, /is inactive/);
});

test("an active sub-user's key does only what both its scopes and the permissions allow", async () => {
  const s = await invite(c);
  await patch(c, s.id, { status: 'active' });
  await setPermissions(c.key, s.id, ['billing:read', 'servers:read', 'tickets:read']);
  const everyScope = await subUserKey(c, s.id);
  const narrow = await subUserKey(c, s.id, ['billing:read', 'account:read', 'tickets:write']);
  const code = async (key: string, method: string, url: string, body?: unknown) => (await call(t.app, method as 'GET', url, { key, body })).statusCode;
  // Every scope ∩ permissions = the permissions.
  assert.equal(await code(everyScope.key, 'GET', '/v2/billing/balance'), 200);
  assert.equal(await code(everyScope.key, 'GET', '/v2/servers'), 200);
  assert.equal(await code(everyScope.key, 'GET', '/v2/account'), 403, 'account:read is not a permission');
  assert.equal(await code(everyScope.key, 'POST', '/v2/tickets', { subject: 'x', message: 'y' }), 403, 'tickets:write is not a permission');
  // Narrow key ∩ permissions = billing:read only.
  assert.equal(await code(narrow.key, 'GET', '/v2/billing/balance'), 200);
  assert.equal(await code(narrow.key, 'GET', '/v2/servers'), 403, "servers:read is the sub-user's but not the key's");
  assert.equal(await code(narrow.key, 'GET', '/v2/account'), 403, "account:read is the key's but not the sub-user's");
  const refused = await call(t.app, 'GET', '/v2/account', { key: narrow.key });
  assert.match(json(refused).error.message, /lacks the scope account:read/);
  // A change of permissions applies from the next request.
  await setPermissions(c.key, s.id, ['billing:read', 'account:read']);
  assert.equal(await code(narrow.key, 'GET', '/v2/account'), 200);
  assert.equal(await code(everyScope.key, 'GET', '/v2/servers'), 403);
  // Acting as the sub-user is acting on the account: the same balance.
  const bal = json(await call(t.app, 'GET', '/v2/billing/balance', { key: everyScope.key })).data;
  assert.equal(bal.balance.amount, '20.00');
});

test('delete: the sub-user goes with its permissions, and each of its keys is revoked (401 afterwards)', async () => {
  const s = await invite(c);
  await patch(c, s.id, { status: 'active' });
  await setPermissions(c.key, s.id, ['billing:read']);
  const k1 = await subUserKey(c, s.id);
  const k2 = await subUserKey(c, s.id);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: k1.key })).statusCode, 200);
  const res = await call(t.app, 'DELETE', `/v2/sub-users/${s.id}`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, { id: s.id, status: 'deleted', revoked_api_keys: 2 });
  for (const k of [k1, k2]) {
    const r = await call(t.app, 'GET', '/v2/billing/balance', { key: k.key });
    assert.equal(r.statusCode, 401);
    assert.equal(json(r).error.code, 'AUTH_INVALID');
  }
  const keys = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/api-keys?per_page=100`)).data;
  for (const k of [k1, k2]) assert.equal(keys.find((x: { id: string }) => x.id === k.id).status, 'revoked');
  assert.equal((await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: c.key })).statusCode, 404);
  assert.equal((await call(t.app, 'DELETE', `/v2/sub-users/${s.id}`, { key: c.key })).statusCode, 404);
  const row = await t.database.db.selectFrom('sub_users').select(['permissions', 'deleted_at']).where('id', '=', s.id).executeTakeFirstOrThrow();
  assert.deepEqual(row.permissions, [], 'its permission assignments are gone');
  assert.ok(row.deleted_at);
  // The email is free again; a new key for the deleted sub-user is refused.
  assert.equal((await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, { email: s.email, first_name: 'G', last_name: 'H' })).statusCode, 201);
  const late = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'late', ip_allowlist: ['127.0.0.1'], sub_user_id: s.id });
  assert.equal(late.statusCode, 422);
  assert.deepEqual(fields(late), ['sub_user_id']);
});

test("admin keys: sub_user_id must be one of the account's sub-users", async () => {
  const theirs = await invite(other);
  for (const id of [theirs.id, 2147483647]) {
    const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'x', ip_allowlist: ['127.0.0.1'], sub_user_id: id });
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(fields(res), ['sub_user_id']);
  }
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'x', ip_allowlist: ['127.0.0.1'], sub_user_id: 'one' });
  assert.equal(res.statusCode, 422);
});

test("a sub-user's key cannot hand out more than it holds", async () => {
  const manager = await invite(c);
  await patch(c, manager.id, { status: 'active' });
  await setPermissions(c.key, manager.id, ['sub_users:read', 'sub_users:write', 'servers:read']);
  const mk = await subUserKey(c, manager.id);
  const target = await invite(c);
  // Within its own permissions: fine.
  assert.equal((await setPermissions(mk.key, target.id, ['servers:read'])).statusCode, 200);
  // Beyond them, for another sub-user or itself: refused, nothing changed.
  for (const id of [target.id, manager.id]) {
    const res = await setPermissions(mk.key, id, ['servers:read', 'billing:write']);
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    assert.match(json(res).error.message, /billing:write/);
  }
  assert.deepEqual(json(await call(t.app, 'GET', `/v2/sub-users/${manager.id}/permissions`, { key: c.key })).data.permissions, ['servers:read', 'sub_users:read', 'sub_users:write']);
  // Activating a sub-user that holds more than the key: refused; the account's own key may.
  await setPermissions(c.key, target.id, ['billing:write']);
  const activate = await patch({ ...c, key: mk.key }, target.id, { status: 'active' });
  assert.equal(activate.statusCode, 403);
  assert.equal(json(await call(t.app, 'GET', `/v2/sub-users/${target.id}`, { key: c.key })).data.status, 'pending');
  assert.equal((await patch(c, target.id, { status: 'active' })).statusCode, 200);
});

test('the core create v1 will call: pending, the password kept only as an scrypt hash and never returned', async () => {
  const db = t.database.db;
  const s = await createSubUser(db, c.accountId, { email: 'v1-user@example.com', first_name: 'Vee', last_name: 'One', password: 'Corr3ct-horse' });
  assert.equal(s.status, 'pending');
  assert.match(s.password_hash!, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  assert.ok(!s.password_hash!.includes('Corr3ct-horse'));
  assert.equal(await verifyPassword('Corr3ct-horse', s.password_hash!), true);
  assert.equal(await verifyPassword('corr3ct-horse', s.password_hash!), false);
  const detail = await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: c.key });
  assert.ok(!detail.body.includes('scrypt') && !detail.body.includes('password'), 'never returned');
  await assert.rejects(createSubUser(db, c.accountId, { email: 'weak@example.com', first_name: 'W', last_name: 'P', password: 'short' }),
    (e: { code?: string; errors?: { field: string }[] }) => e.code === 'INVALID_PASSWORD' && e.errors?.[0]?.field === 'password');
  const none = await createSubUser(db, c.accountId, { email: 'nopass@example.com', first_name: 'N', last_name: 'P' });
  assert.equal(none.password_hash, null);
});

test('POST /v2/sub-users stays 501: inviting is done in the panel', async () => {
  const res = await call(t.app, 'POST', '/v2/sub-users', { key: c.key, body: { email: 'x@example.com', first_name: 'a', last_name: 'b' } });
  assert.equal(res.statusCode, 501);
  assert.equal(json(res).error.code, 'NOT_IMPLEMENTED');
});

test('sandbox: changes are real answers but nothing persists', async () => {
  const sbx = await createCustomer(t, { isTest: true });
  const s = await invite(sbx);
  const res = await patch(sbx, s.id, { first_name: 'Sandbox', status: 'active' });
  assert.equal(res.statusCode, 200);
  assert.equal(json(res).meta.sandbox, true);
  assert.equal(json(res).data.first_name, 'Sandbox');
  const del = await call(t.app, 'DELETE', `/v2/sub-users/${s.id}`, { key: sbx.key });
  assert.equal(del.statusCode, 200);
  const after = json(await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: sbx.key })).data;
  assert.equal(after.first_name, 'Grace');
  assert.equal(after.status, 'pending');
});

test('scopes: sub_users:read reads, sub_users:write is needed to change', async () => {
  const reader = await createCustomer(t, { scopes: ['sub_users:read'] });
  const s = await invite(reader);
  assert.equal((await call(t.app, 'GET', `/v2/sub-users/${s.id}`, { key: reader.key })).statusCode, 200);
  assert.equal((await patch(reader, s.id, { first_name: 'x' })).statusCode, 403);
  assert.equal((await setPermissions(reader.key, s.id, [])).statusCode, 403);
});
