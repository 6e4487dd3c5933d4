// Support tickets, the customer's side: open, list, read, reply, close — shapes field by field,
// every documented error, bad input, another account's tickets, the sandbox, scopes.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MESSAGE = 'My server web-1 does not boot since the reinstall this morning.';
const REPLY = 'Still down after a reboot; the console shows no bootable device.';
// Seeded departments: 1 Technical Support, 2 Billing, 3 Sales (active), 4 Abuse (inactive).
const SUPPORT = 1;
const ABUSE = 4;

before(async () => {
  t = await startApp();
  c = await createCustomer(t);
  other = await createCustomer(t);
});

async function open(cust: Customer, body: Record<string, unknown> = {}) {
  const res = await call(t.app, 'POST', '/v2/tickets', { key: cust.key, body: { subject: 'Server down', message: MESSAGE, ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

const fields = (res: Parameters<typeof json>[0]) => json(res).error.errors.map((e: { field: string }) => e.field);

test('create: 201 with the ticket and its first message, field by field', async () => {
  const res = await call(t.app, 'POST', '/v2/tickets', {
    key: c.key, body: { subject: '  Сервер не загружается ', message: MESSAGE, department_id: SUPPORT, priority: 'high' },
  });
  assert.equal(res.statusCode, 201, res.body);
  const { data, meta } = json(res);
  assert.deepEqual(Object.keys(data).sort(), ['closed_at', 'created_at', 'department', 'id', 'messages', 'priority', 'status', 'subject', 'updated_at']);
  assert.match(data.id, /^[1-9]\d{5}$/, 'a six-digit ticket number');
  assert.equal(data.subject, 'Сервер не загружается', 'stored without surrounding white space');
  assert.equal(data.status, 'open');
  assert.equal(data.priority, 'high');
  assert.deepEqual(data.department, { id: SUPPORT, name: 'Technical Support' });
  assert.match(data.created_at, TIMESTAMP);
  assert.equal(data.updated_at, data.created_at);
  assert.equal(data.closed_at, null);
  assert.equal(data.messages.length, 1);
  const [m] = data.messages;
  assert.deepEqual(Object.keys(m).sort(), ['author', 'created_at', 'id', 'message']);
  assert.equal(m.author, 'customer');
  assert.equal(m.message, MESSAGE);
  assert.equal(typeof m.id, 'number');
  assert.match(m.created_at, TIMESTAMP);
  assert.equal(meta.version, '2.0.0');
  assert.equal(meta.sandbox, undefined);
});

test('create: department is optional, priority defaults to medium; numbers are distinct', async () => {
  const a = await open(c);
  const b = await open(c);
  assert.equal(a.department, null);
  assert.equal(a.priority, 'medium');
  assert.notEqual(a.id, b.id);
});

test('create: the department must be an active one (422 naming department_id)', async () => {
  for (const id of [ABUSE, 999]) {
    const res = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'x', message: MESSAGE, department_id: id } });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
    assert.deepEqual(fields(res), ['department_id']);
  }
});

test('create: subject and message rules, counted on Unicode letters', async () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ subject: '1234 !!!', message: MESSAGE }, ['subject']],
    [{ subject: 'ok', message: 'Too short to help.' }, ['message']],
    [{ subject: 'ok', message: '1234567890 1234567890 12345 abc' }, ['message']],
    [{ subject: '???', message: '!!!' }, ['subject', 'message']],
    [{ subject: 'Ж', message: 'Сервер не отвечает с утра, помогите пожалуйста' }, []],
    [{ subject: '服务器', message: '我的服务器重新安装以后无法启动，请帮我看看是什么问题，谢谢。' }, []],
  ];
  for (const [body, expected] of cases) {
    const res = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body });
    if (expected.length === 0) {
      assert.equal(res.statusCode, 201, res.body);
      continue;
    }
    assert.equal(res.statusCode, 422, JSON.stringify(body));
    assert.deepEqual(fields(res).sort(), [...expected].sort(), JSON.stringify(body));
  }
  const short = json(await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'x', message: 'abcdefghijklmn 1234567890' } }));
  assert.match(short.error.errors[0].message, /at least 25 characters including at least 15 letters \(this one has 25 characters, 14 letters\)/);
});

test('create: wrong types, missing and unknown fields, oversize strings, NUL, bad JSON', async () => {
  const cases: [unknown, string][] = [
    [{ subject: 5, message: MESSAGE }, 'subject'],
    [{ subject: 'x' }, 'message'],
    [{ message: MESSAGE }, 'subject'],
    [{ subject: 'x', message: MESSAGE, department_id: '1' }, 'department_id'],
    [{ subject: 'x', message: MESSAGE, department_id: 0 }, 'department_id'],
    [{ subject: 'x', message: MESSAGE, priority: 'critical' }, 'priority'],
    [{ subject: 'x', message: MESSAGE, status: 'closed' }, 'status'],
    [{ subject: 'a'.repeat(201), message: MESSAGE }, 'subject'],
    [{ subject: 'x', message: `${MESSAGE} ${'a'.repeat(10_000)}` }, 'message'],
    [{ subject: 'bad\u0000subject', message: MESSAGE }, 'subject'],
    [{ subject: 'x', message: `${MESSAGE}\u0000` }, 'message'],
  ];
  for (const [body, field] of cases) {
    const res = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body });
    assert.equal(res.statusCode, 422, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
    assert.ok(fields(res).includes(field), `${field} named: ${res.body}`);
  }
  const bad = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: '{"subject":', headers: { 'content-type': 'application/json' } });
  assert.equal(bad.statusCode, 400);
  const listed = json(await call(t.app, 'GET', '/v2/tickets', { key: c.key, query: { per_page: '100' } })).data;
  assert.ok(!listed.some((x: { subject: string }) => x.subject.includes('\u0000')), 'nothing half-written');
});

test('list: newest first, status filter, paging, without threads; another account sees none', async () => {
  const cust = await createCustomer(t);
  const first = await open(cust, { subject: 'first' });
  const second = await open(cust, { subject: 'second' });
  const third = await open(cust, { subject: 'third' });
  await call(t.app, 'POST', `/v2/tickets/${second.id}/close`, { key: cust.key });
  const all = json(await call(t.app, 'GET', '/v2/tickets', { key: cust.key }));
  assert.deepEqual(all.data.map((x: { id: string }) => x.id), [third.id, second.id, first.id]);
  assert.deepEqual(all.meta.pagination, { page: 1, per_page: 25, total: 3, total_pages: 1 });
  assert.deepEqual(Object.keys(all.data[0]).sort(), ['closed_at', 'created_at', 'department', 'id', 'priority', 'status', 'subject', 'updated_at']);
  const closed = json(await call(t.app, 'GET', '/v2/tickets', { key: cust.key, query: { status: 'closed' } }));
  assert.deepEqual(closed.data.map((x: { id: string }) => x.id), [second.id]);
  const page2 = json(await call(t.app, 'GET', '/v2/tickets', { key: cust.key, query: { per_page: '2', page: '2' } }));
  assert.deepEqual(page2.data.map((x: { id: string }) => x.id), [first.id]);
  assert.deepEqual(page2.meta.pagination, { page: 2, per_page: 2, total: 3, total_pages: 2 });
  for (const query of [{ status: 'deleted' }, { per_page: '101' }, { page: '0' }] as Record<string, string>[]) {
    const res = await call(t.app, 'GET', '/v2/tickets', { key: cust.key, query });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(fields(res), [Object.keys(query)[0]]);
  }
  const theirs = json(await call(t.app, 'GET', '/v2/tickets', { key: other.key }));
  assert.ok(!theirs.data.some((x: { id: string }) => [first.id, second.id, third.id].includes(x.id)));
});

test('detail: the thread oldest first; internal notes never shown; 404 for unknown and foreign numbers', async () => {
  const ticket = await open(c);
  assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/notes`, { message: 'Customer is on the old kernel; check the image.' })).statusCode, 201);
  assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/replies`, { message: 'We are looking into it.' })).statusCode, 201);
  const res = await call(t.app, 'GET', `/v2/tickets/${ticket.id}`, { key: c.key });
  assert.equal(res.statusCode, 200);
  const d = json(res).data;
  assert.equal(d.status, 'answered');
  assert.deepEqual(d.messages.map((m: { author: string; message: string }) => [m.author, m.message]), [
    ['customer', MESSAGE], ['staff', 'We are looking into it.'],
  ]);
  assert.ok(!res.body.includes('old kernel'), 'the note is nowhere in the answer');
  assert.ok(!res.body.includes('internal'));
  for (const [who, id] of [[other, ticket.id], [c, '100000'], [c, 'abc']] as const) {
    const r = await call(t.app, 'GET', `/v2/tickets/${id}`, { key: who.key });
    assert.equal(r.statusCode, 404, `${id}: ${r.body}`);
    assert.equal(json(r).error.code, 'RESOURCE_NOT_FOUND');
    assert.ok(!r.body.includes(MESSAGE));
  }
});

test('reply: 201, the ticket becomes customer_reply; the message rule applies; foreign → 404', async () => {
  const ticket = await open(c);
  const res = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: c.key, body: { message: REPLY } });
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.equal(d.status, 'customer_reply');
  assert.deepEqual(d.messages.map((m: { message: string }) => m.message), [MESSAGE, REPLY]);
  assert.ok(d.updated_at >= ticket.updated_at);
  const short = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: c.key, body: { message: 'thanks!' } });
  assert.equal(short.statusCode, 422);
  assert.deepEqual(fields(short), ['message']);
  for (const body of [{}, { message: 5 }, { message: REPLY, extra: 1 }, { message: `${REPLY}\u0000` }]) {
    const r = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: c.key, body });
    assert.equal(r.statusCode, 422, JSON.stringify(body));
  }
  const foreign = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: other.key, body: { message: REPLY } });
  assert.equal(foreign.statusCode, 404);
  const after = json(await call(t.app, 'GET', `/v2/tickets/${ticket.id}`, { key: c.key })).data;
  assert.equal(after.messages.length, 2, 'neither the refused nor the foreign reply was written');
});

test('close: 200 closed with closed_at; closing again or replying is 409; foreign → 404', async () => {
  const ticket = await open(c);
  const foreign = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: other.key });
  assert.equal(foreign.statusCode, 404);
  const res = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.equal(d.status, 'closed');
  assert.match(d.closed_at, TIMESTAMP);
  const again = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: c.key });
  assert.equal(again.statusCode, 409);
  assert.equal(json(again).error.code, 'STATE_CONFLICT');
  assert.match(json(again).error.message, /closed/);
  const reply = await call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: c.key, body: { message: REPLY } });
  assert.equal(reply.statusCode, 409);
  assert.equal(json(reply).error.code, 'STATE_CONFLICT');
  assert.equal((await call(t.app, 'POST', '/v2/tickets/100000/close', { key: c.key })).statusCode, 404);
});

test('parallel replies and a close on one ticket: each applies once, in some order, and the state is consistent', async () => {
  const ticket = await open(c);
  const results = await Promise.all([
    ...Array.from({ length: 5 }, () => call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: c.key, body: { message: REPLY } })),
    call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: c.key }),
  ]);
  const replies = results.slice(0, 5);
  const accepted = replies.filter((r) => r.statusCode === 201).length;
  assert.ok(replies.every((r) => r.statusCode === 201 || r.statusCode === 409));
  assert.equal(results[5]!.statusCode, 200);
  const d = json(await call(t.app, 'GET', `/v2/tickets/${ticket.id}`, { key: c.key })).data;
  assert.equal(d.status, 'closed');
  assert.equal(d.messages.length, 1 + accepted, 'a refused reply wrote nothing');
});

test('a deleted ticket leaves the list and answers 404', async () => {
  const ticket = await open(c);
  assert.equal((await adminCall(t, 'DELETE', `/admin/v1/tickets/${ticket.id}`)).statusCode, 200);
  assert.equal((await call(t.app, 'GET', `/v2/tickets/${ticket.id}`, { key: c.key })).statusCode, 404);
  assert.equal((await call(t.app, 'POST', `/v2/tickets/${ticket.id}/replies`, { key: c.key, body: { message: REPLY } })).statusCode, 404);
  assert.equal((await call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: c.key })).statusCode, 404);
  const listed = json(await call(t.app, 'GET', '/v2/tickets', { key: c.key, query: { per_page: '100' } })).data;
  assert.ok(!listed.some((x: { id: string }) => x.id === ticket.id));
});

test('sandbox: a test key opens a ticket for real (validation too), and nothing is kept', async () => {
  const sbx = await createCustomer(t, { isTest: true });
  const res = await call(t.app, 'POST', '/v2/tickets', { key: sbx.key, body: { subject: 'Sandbox', message: MESSAGE } });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(json(res).meta.sandbox, true);
  assert.equal(json(res).data.status, 'open');
  const id = json(res).data.id;
  assert.equal((await call(t.app, 'GET', `/v2/tickets/${id}`, { key: sbx.key })).statusCode, 404, 'it was rolled back');
  const invalid = await call(t.app, 'POST', '/v2/tickets', { key: sbx.key, body: { subject: '!!!', message: MESSAGE } });
  assert.equal(invalid.statusCode, 422, 'validation is real');
  const list = json(await call(t.app, 'GET', '/v2/tickets', { key: sbx.key }));
  assert.deepEqual(list.data, []);
  assert.equal(list.meta.sandbox, true);
  const rows = await t.database.db.selectFrom('tickets').select('id').where('account_id', '=', sbx.accountId).execute();
  assert.deepEqual(rows, []);
});

test('scopes: tickets:read reads, tickets:write is needed to open, reply and close', async () => {
  const reader = await createCustomer(t, { scopes: ['tickets:read'] });
  assert.equal((await call(t.app, 'GET', '/v2/tickets', { key: reader.key })).statusCode, 200);
  for (const [method, url, body] of [['POST', '/v2/tickets', { subject: 'x', message: MESSAGE }], ['POST', '/v2/tickets/100000/close', undefined]] as const) {
    const res = await call(t.app, method, url, { key: reader.key, body });
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  }
});
