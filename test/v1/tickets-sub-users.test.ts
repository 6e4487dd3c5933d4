// v1 departments, tickets and sub-users: v1 shapes field by field, errors in the v1 envelope, bad
// input, another account's ids, disallowed IPs — over the same core (and data) as v2.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { verifyPassword } from '../../src/core/sub-users/password.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MESSAGE = 'My server web-1 does not boot since the reinstall this morning.';
const REPLY = 'Still down after a reboot; the console shows no bootable device.';
const PASSWORD = 'Str0ng!Passw0rd';
const AWAY = '198.51.100.20';

before(async () => {
  t = await startApp();
  c = await createCustomer(t);
  other = await createCustomer(t);
});

test('GET /v1/departments: the active departments with id, name, email', async () => {
  const res = await v1(t.app, 'GET', '/v1/departments', { key: c.key });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(json(res).data, [
    { id: 1, name: 'Technical Support', email: 'support@hostcloud.example' },
    { id: 2, name: 'Billing', email: 'billing@hostcloud.example' },
    { id: 3, name: 'Sales', email: 'sales@hostcloud.example' },
  ]);
  assert.deepEqual(json(res).pagination, { current_page: 1, total: 3, total_pages: 1 });
  expectV1Error(await v1(t.app, 'GET', '/v1/departments', { key: c.key, ip: AWAY }), 401, 'INVALID_API_KEY');
});

describe('tickets', () => {
  let id: string;

  test('POST /v1/tickets: 200 with the ticket and its thread in v1 form', async () => {
    const res = await v1(t.app, 'POST', '/v1/tickets', { key: c.key, body: { subject: 'Server down', message: MESSAGE, department_id: 1, priority: 'high' } });
    assert.equal(res.statusCode, 200, res.body);
    const out = json(res);
    assert.deepEqual(Object.keys(out.data).sort(), ['id', 'messages', 'status', 'subject']);
    assert.match(out.data.id, /^\d{6,}$/);
    assert.equal(out.data.status, 'open');
    assert.equal(out.data.messages.length, 1);
    const m = out.data.messages[0];
    assert.deepEqual(Object.keys(m).sort(), ['author', 'created_at', 'id', 'message']);
    assert.equal(m.message, MESSAGE);
    assert.equal(m.author, 'customer');
    assert.match(m.created_at, TIMESTAMP);
    id = out.data.id;
    // The same ticket in v2, with the priority v1 sent.
    const v2 = json(await call(t.app, 'GET', `/v2/tickets/${id}`, { key: c.key })).data;
    assert.equal(v2.priority, 'high');
    assert.deepEqual(v2.department, { id: 1, name: 'Technical Support' });
  });

  test('POST /v1/tickets bad input: each refusal names its field', async () => {
    const create = (body: unknown) => v1(t.app, 'POST', '/v1/tickets', { key: c.key, body });
    expectV1Error(await create({ subject: 'Hi', message: 'too short' }), 422, 'VALIDATION_FAILED', ['message']);
    expectV1Error(await create({ subject: '1234', message: MESSAGE }), 422, 'VALIDATION_FAILED', ['subject']);
    expectV1Error(await create({ message: MESSAGE }), 422, 'VALIDATION_FAILED', ['subject']);
    expectV1Error(await create({ subject: 'Hi', message: MESSAGE, department_id: 4 }), 422, 'VALIDATION_FAILED', ['department_id']);
    expectV1Error(await create({ subject: 'Hi', message: MESSAGE, department_id: '1' }), 422, 'VALIDATION_FAILED', ['department_id']);
    expectV1Error(await create({ subject: 'Hi', message: MESSAGE, priority: 'critical' }), 422, 'VALIDATION_FAILED', ['priority']);
    expectV1Error(await create({ subject: 'Hi', message: MESSAGE, cc: 'x' }), 422, 'VALIDATION_FAILED');
    const wrongType = await t.app.inject({ method: 'POST', url: '/v1/tickets', headers: { 'x-api-key': c.key, 'content-type': 'text/plain' }, payload: 'hi' });
    assert.equal(wrongType.statusCode, 400, wrongType.body);
    assert.equal(json(wrongType).success, false);
  });

  test('GET /v1/tickets: v1 list items, department by name, status filter, pagination', async () => {
    await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'Made in v2', message: MESSAGE } });
    const res = await v1(t.app, 'GET', '/v1/tickets', { key: c.key });
    assert.equal(res.statusCode, 200);
    const out = json(res);
    assert.deepEqual(out.pagination, { current_page: 1, total: 2, total_pages: 1 });
    assert.deepEqual(out.data[1], { id, subject: 'Server down', status: 'open', department: 'Technical Support' });
    assert.equal(out.data[0].subject, 'Made in v2');
    assert.equal(out.data[0].department, null);
    assert.equal(json(await v1(t.app, 'GET', '/v1/tickets', { key: c.key, query: { status: 'closed' } })).data.length, 0);
    expectV1Error(await v1(t.app, 'GET', '/v1/tickets', { key: c.key, query: { status: 'lost' } }), 422, 'VALIDATION_FAILED', ['status']);
    assert.equal(json(await v1(t.app, 'GET', '/v1/tickets', { key: other.key })).data.length, 0);
    expectV1Error(await v1(t.app, 'GET', '/v1/tickets', { key: c.key, ip: AWAY }), 401, 'INVALID_API_KEY');
  });

  test('reply, a staff answer, close; a closed ticket refuses both with 422 STATE_CONFLICT', async () => {
    const reply = await v1(t.app, 'POST', `/v1/tickets/${id}/reply`, { key: c.key, body: { message: REPLY } });
    assert.equal(reply.statusCode, 200, reply.body);
    assert.equal(json(reply).data.status, 'customer_reply');
    assert.deepEqual(json(reply).data.messages.map((m: { message: string }) => m.message), [MESSAGE, REPLY]);
    expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${id}/reply`, { key: c.key, body: { message: 'ok' } }), 422, 'VALIDATION_FAILED', ['message']);
    assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${id}/replies`, { message: 'We are on it.' })).statusCode, 201);
    await adminCall(t, 'POST', `/admin/v1/tickets/${id}/notes`, { message: 'internal: disk controller' });
    const detail = json(await v1(t.app, 'GET', `/v1/tickets/${id}`, { key: c.key })).data;
    assert.equal(detail.status, 'answered');
    assert.deepEqual(detail.messages.map((m: { author: string }) => m.author), ['customer', 'customer', 'staff'], 'internal notes never reach the customer');
    const close = await v1(t.app, 'POST', `/v1/tickets/${id}/close`, { key: c.key });
    assert.equal(close.statusCode, 200, close.body);
    assert.equal(json(close).data.status, 'closed');
    expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${id}/close`, { key: c.key }), 422, 'STATE_CONFLICT');
    expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${id}/reply`, { key: c.key, body: { message: REPLY } }), 422, 'STATE_CONFLICT');
  });

  test('another account\'s ticket and an unknown number → 404 NOT_FOUND; a disallowed IP → 401', async () => {
    expectV1Error(await v1(t.app, 'GET', `/v1/tickets/${id}`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${id}/reply`, { key: other.key, body: { message: REPLY } }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${id}/close`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', '/v1/tickets/000000', { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', `/v1/tickets/${id}`, { key: c.key, ip: AWAY }), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'POST', `/v1/tickets/${id}/close`, { key: c.key, ip: AWAY }), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'POST', '/v1/tickets', { key: c.key, ip: AWAY, body: { subject: 'x', message: MESSAGE } }), 401, 'INVALID_API_KEY');
  });
});

describe('sub-users', () => {
  let sub: { id: number; email: string };
  const email = `grace-${randomBytes(3).toString('hex')}@example.com`;

  test('POST /v1/sub-users: 200, pending with no permissions; the password is kept only as a hash', async () => {
    const res = await v1(t.app, 'POST', '/v1/sub-users', { key: c.key, body: { email, first_name: 'Grace', last_name: 'Hopper', password: PASSWORD } });
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.deepEqual(d, { id: d.id, email, first_name: 'Grace', last_name: 'Hopper', status: 'pending', permissions: [] });
    sub = d;
    const row = await t.database.db.selectFrom('sub_users').select('password_hash').where('id', '=', d.id).executeTakeFirstOrThrow();
    assert.ok(row.password_hash && !row.password_hash.includes(PASSWORD));
    assert.equal(await verifyPassword(PASSWORD, row.password_hash), true);
    // v2 reads the same sub-user.
    assert.equal(json(await call(t.app, 'GET', `/v2/sub-users/${d.id}`, { key: c.key })).data.email, email);
  });

  test('POST /v1/sub-users bad input', async () => {
    const create = (body: Record<string, unknown>) => v1(t.app, 'POST', '/v1/sub-users', {
      key: c.key, body: { email: `x-${randomBytes(3).toString('hex')}@example.com`, first_name: 'A', last_name: 'B', password: PASSWORD, ...body },
    });
    expectV1Error(await create({ password: 'weakpass' }), 422, 'INVALID_PASSWORD', ['password']);
    expectV1Error(await create({ email: 'not-an-email' }), 422, 'VALIDATION_FAILED', ['email']);
    expectV1Error(await create({ email: email.toUpperCase() }), 422, 'VALIDATION_FAILED', ['email']);
    expectV1Error(await create({ first_name: '' }), 422, 'VALIDATION_FAILED', ['first_name']);
    expectV1Error(await create({ role: 'admin' }), 422, 'VALIDATION_FAILED');
    const { password: _, ...noPassword } = { email: 'y@example.com', first_name: 'A', last_name: 'B', password: PASSWORD };
    expectV1Error(await v1(t.app, 'POST', '/v1/sub-users', { key: c.key, body: noPassword }), 422, 'VALIDATION_FAILED', ['password']);
  });

  test('GET /v1/sub-users and /{id}: five fields in lists, permissions in the detail', async () => {
    assert.equal((await call(t.app, 'PUT', `/v2/sub-users/${sub.id}/permissions`, { key: c.key, body: { permissions: ['tickets:write', 'servers:read'] } })).statusCode, 200);
    const list = await v1(t.app, 'GET', '/v1/sub-users', { key: c.key });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(json(list).data, [{ id: sub.id, email, first_name: 'Grace', last_name: 'Hopper', status: 'pending' }]);
    assert.deepEqual(json(list).pagination, { current_page: 1, total: 1, total_pages: 1 });
    const detail = await v1(t.app, 'GET', `/v1/sub-users/${sub.id}`, { key: c.key });
    assert.deepEqual(json(detail).data.permissions, ['servers:read', 'tickets:write']);
    assert.equal(json(await v1(t.app, 'GET', '/v1/sub-users', { key: other.key })).data.length, 0);
  });

  test('PUT /v1/sub-users/{id}: names; anything else is refused', async () => {
    const res = await v1(t.app, 'PUT', `/v1/sub-users/${sub.id}`, { key: c.key, body: { first_name: 'Ada', last_name: 'Lovelace' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json(res).data, { id: sub.id, email, first_name: 'Ada', last_name: 'Lovelace', status: 'pending', permissions: ['servers:read', 'tickets:write'] });
    assert.equal(json(await v1(t.app, 'PUT', `/v1/sub-users/${sub.id}`, { key: c.key, body: { last_name: 'King' } })).data.last_name, 'King');
    expectV1Error(await v1(t.app, 'PUT', `/v1/sub-users/${sub.id}`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED');
    expectV1Error(await v1(t.app, 'PUT', `/v1/sub-users/${sub.id}`, { key: c.key, body: { email: 'new@example.com' } }), 422, 'VALIDATION_FAILED');
    expectV1Error(await v1(t.app, 'PUT', `/v1/sub-users/${sub.id}`, { key: c.key, body: { first_name: '   ' } }), 422, 'VALIDATION_FAILED', ['first_name']);
  });

  test('another account\'s sub-user, an unknown or non-numeric id → 404; a disallowed IP → 401', async () => {
    for (const key of [other.key]) {
      expectV1Error(await v1(t.app, 'GET', `/v1/sub-users/${sub.id}`, { key }), 404, 'NOT_FOUND');
      expectV1Error(await v1(t.app, 'PUT', `/v1/sub-users/${sub.id}`, { key, body: { first_name: 'X' } }), 404, 'NOT_FOUND');
      expectV1Error(await v1(t.app, 'DELETE', `/v1/sub-users/${sub.id}`, { key }), 404, 'NOT_FOUND');
    }
    expectV1Error(await v1(t.app, 'GET', '/v1/sub-users/abc', { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', '/v1/sub-users/99999999999', { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', '/v1/sub-users', { key: c.key, ip: AWAY }), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'DELETE', `/v1/sub-users/${sub.id}`, { key: c.key, ip: AWAY }), 401, 'INVALID_API_KEY');
  });

  test('DELETE /v1/sub-users/{id}: gone, and its API keys revoked', async () => {
    const key = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sub', ip_allowlist: ['127.0.0.1'], sub_user_id: sub.id })).data.key;
    const res = await v1(t.app, 'DELETE', `/v1/sub-users/${sub.id}`, { key: c.key });
    assert.deepEqual(json(res), { success: true, message: 'Sub-user deleted' });
    expectV1Error(await v1(t.app, 'GET', `/v1/sub-users/${sub.id}`, { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', '/v1/tickets', { key }), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'DELETE', `/v1/sub-users/${sub.id}`, { key: c.key }), 404, 'NOT_FOUND');
  });
});
