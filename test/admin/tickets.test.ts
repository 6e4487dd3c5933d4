// Support tickets, the staff's side (/admin/v1/tickets): every account's tickets with filters, the
// thread with notes, replies that notify the customer in the same transaction, notes, status,
// priority and department changes, soft deletes.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

let t: TestApp;
let a: Customer;
let b: Customer;

const MESSAGE = 'My server web-1 does not boot since the reinstall this morning.';

before(async () => {
  t = await startApp();
  a = await createCustomer(t, { email: `a-${Date.now()}@example.com` });
  b = await createCustomer(t);
});

async function open(cust: Customer, body: Record<string, unknown> = {}) {
  const res = await call(t.app, 'POST', '/v2/tickets', { key: cust.key, body: { subject: 'Server down', message: MESSAGE, ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data as { id: string; status: string };
}

const fields = (res: Parameters<typeof json>[0]) => json(res).error.errors.map((e: { field: string }) => e.field);

test('list: every account, newest first, filtered by status, account, department and priority', async () => {
  const t1 = await open(a, { department_id: 1, priority: 'urgent' });
  const t2 = await open(b, { department_id: 2 });
  const t3 = await open(a);
  const all = json(await adminCall(t, 'GET', '/admin/v1/tickets?per_page=100'));
  const ids = all.data.map((x: { id: string }) => x.id);
  assert.ok(ids.indexOf(t3.id) < ids.indexOf(t2.id) && ids.indexOf(t2.id) < ids.indexOf(t1.id), 'newest first');
  assert.deepEqual(Object.keys(all.data[0]).sort(), ['account_id', 'assignee', 'closed_at', 'created_at', 'department', 'id', 'priority', 'status', 'subject', 'updated_at']);
  const byAccount = json(await adminCall(t, 'GET', `/admin/v1/tickets?account_id=${b.accountId}`));
  assert.deepEqual(byAccount.data.map((x: { id: string }) => x.id), [t2.id]);
  assert.equal(byAccount.data[0].account_id, b.accountId);
  const urgent = json(await adminCall(t, 'GET', `/admin/v1/tickets?priority=urgent&account_id=${a.accountId}`));
  assert.deepEqual(urgent.data.map((x: { id: string }) => x.id), [t1.id]);
  const billing = json(await adminCall(t, 'GET', `/admin/v1/tickets?department_id=2&account_id=${b.accountId}`));
  assert.deepEqual(billing.data.map((x: { id: string }) => x.id), [t2.id]);
  const open_ = json(await adminCall(t, 'GET', `/admin/v1/tickets?status=open&account_id=${a.accountId}`));
  assert.equal(open_.meta.pagination.total, 2);
  for (const q of ['status=nope', 'priority=critical', 'department_id=x', 'per_page=101', 'colour=red']) {
    const res = await adminCall(t, 'GET', `/admin/v1/tickets?${q}`);
    assert.equal(res.statusCode, 422, q);
    assert.deepEqual(fields(res), [q.split('=')[0]]);
  }
});

test('reply: 201, the ticket becomes answered, and a ticket.answered notice to the account is queued', async () => {
  const ticket = await open(a);
  const res = await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/replies`, { message: 'Done: the boot order was wrong.' });
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.equal(d.status, 'answered');
  assert.equal(d.account_id, a.accountId);
  assert.deepEqual(d.messages.map((m: { author: string; internal: boolean }) => [m.author, m.internal]), [['customer', false], ['staff', false]]);
  const notices = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${a.accountId}&kind=ticket.answered`)).data;
  const notice = notices.find((n: { subject: string }) => n.subject.includes(ticket.id));
  assert.ok(notice, JSON.stringify(notices));
  assert.equal(notice.subject, `Ticket #${ticket.id} answered: Server down`);
  assert.match(notice.body, /Done: the boot order was wrong\./);
  // Written for a person: how to answer, not an HTTP request.
  assert.match(notice.body, new RegExp(`To answer, reply to ticket #${ticket.id}; once your problem is solved, you can close the ticket\\.`));
  assert.doesNotMatch(notice.body, /\b(POST|GET|PUT)\b|\/v2\//);
  assert.match(notice.to_email, /^a-\d+@example\.com$/);
  assert.equal(notice.status, 'queued');
});

test('reply: refused on a closed ticket (409, and no notice); blank, oversize or missing text is 422', async () => {
  const ticket = await open(a);
  await call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: a.key });
  const before_ = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${a.accountId}&per_page=100`)).meta.pagination.total;
  const res = await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/replies`, { message: 'Anything else?' });
  assert.equal(res.statusCode, 409);
  assert.equal(json(res).error.code, 'STATE_CONFLICT');
  const after = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${a.accountId}&per_page=100`)).meta.pagination.total;
  assert.equal(after, before_, 'the notice rolled back with the refused reply');
  const live = await open(a);
  for (const body of [{ message: '  ' }, { message: 'x'.repeat(10_001) }, {}, { message: 1 }, { message: 'ok', internal: true }, { message: 'a\u0000b' }]) {
    const r = await adminCall(t, 'POST', `/admin/v1/tickets/${live.id}/replies`, body);
    assert.equal(r.statusCode, 422, JSON.stringify(body).slice(0, 50));
  }
  assert.equal((await adminCall(t, 'POST', '/admin/v1/tickets/100000/replies', { message: 'hi' })).statusCode, 404);
});

test('notes: staff only, any state (closed too), no state change, never shown to the customer', async () => {
  const ticket = await open(a);
  await call(t.app, 'POST', `/v2/tickets/${ticket.id}/close`, { key: a.key });
  const res = await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/notes`, { message: 'Refund approved by billing.' });
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.equal(d.status, 'closed');
  assert.deepEqual(d.messages.at(-1), { ...d.messages.at(-1), author: 'staff', internal: true, message: 'Refund approved by billing.' });
  const staffView = json(await adminCall(t, 'GET', `/admin/v1/tickets/${ticket.id}`)).data;
  assert.equal(staffView.messages.length, 2);
  const customerView = await call(t.app, 'GET', `/v2/tickets/${ticket.id}`, { key: a.key });
  assert.equal(json(customerView).data.messages.length, 1);
  assert.ok(!customerView.body.includes('Refund approved'));
  assert.equal((await adminCall(t, 'POST', '/admin/v1/tickets/100000/notes', { message: 'x' })).statusCode, 404);
});

test('status: in_progress and pending by hand; closed reopens; closing a closed ticket is 409; reply-only states are 422', async () => {
  const ticket = await open(a);
  const set = (body: Record<string, unknown>) => adminCall(t, 'PATCH', `/admin/v1/tickets/${ticket.id}`, body);
  assert.equal(json(await set({ status: 'in_progress' })).data.status, 'in_progress');
  assert.equal(json(await set({ status: 'pending' })).data.status, 'pending');
  assert.equal(json(await set({ status: 'pending' })).data.status, 'pending', 'the same status again changes nothing');
  const closed = json(await set({ status: 'closed' })).data;
  assert.equal(closed.status, 'closed');
  assert.ok(closed.closed_at);
  const again = await set({ status: 'closed' });
  assert.equal(again.statusCode, 409);
  const reopened = json(await set({ status: 'open' })).data;
  assert.equal(reopened.status, 'open');
  assert.equal(reopened.closed_at, null);
  for (const body of [{ status: 'answered' }, { status: 'customer_reply' }, {}, { status: 'open', subject: 'x' }, { priority: 'critical' }]) {
    const r = await set(body);
    assert.equal(r.statusCode, 422, JSON.stringify(body));
  }
  // The customer sees staff's state too.
  assert.equal(json(await call(t.app, 'GET', `/v2/tickets/${ticket.id}`, { key: a.key })).data.status, 'open');
});

test('priority and department; an inactive department is 422; null removes it', async () => {
  const ticket = await open(a);
  const res = await adminCall(t, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { priority: 'low', department_id: 3 });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).data.priority, 'low');
  assert.deepEqual(json(res).data.department, { id: 3, name: 'Sales' });
  assert.equal(json(res).data.status, 'open', 'no status change');
  const inactive = await adminCall(t, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { department_id: 4 });
  assert.equal(inactive.statusCode, 422);
  assert.deepEqual(fields(inactive), ['department_id']);
  const cleared = await adminCall(t, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { department_id: null });
  assert.equal(json(cleared).data.department, null);
  assert.equal((await adminCall(t, 'PATCH', '/admin/v1/tickets/100000', { priority: 'low' })).statusCode, 404);
});

test('delete: soft — out of every list, 404 to staff and customer; a second delete is 404', async () => {
  const ticket = await open(b);
  const res = await adminCall(t, 'DELETE', `/admin/v1/tickets/${ticket.id}`);
  assert.equal(res.statusCode, 200);
  assert.equal(json(res).data.id, ticket.id);
  assert.equal((await adminCall(t, 'GET', `/admin/v1/tickets/${ticket.id}`)).statusCode, 404);
  assert.equal((await adminCall(t, 'DELETE', `/admin/v1/tickets/${ticket.id}`)).statusCode, 404);
  assert.equal((await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/notes`, { message: 'x' })).statusCode, 404);
  const listed = json(await adminCall(t, 'GET', `/admin/v1/tickets?account_id=${b.accountId}&per_page=100`)).data;
  assert.ok(!listed.some((x: { id: string }) => x.id === ticket.id));
  const row = await t.database.db.selectFrom('ticket_messages').select('body').where('ticket_id', '=', ticket.id).execute();
  assert.equal(row.length, 1, 'the thread is kept');
});

test('the admin token is required', async () => {
  const res = await call(t.app, 'GET', '/admin/v1/tickets', { key: a.key });
  assert.equal(res.statusCode, 401);
});
