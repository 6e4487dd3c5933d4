// Support staff's queue: assigning a ticket (PATCH assignee_id), the queue's filters together
// (department + status + assignee, `me` and `none`), search, who wrote each staff message, and the
// bulk close — with bad input, unknown ids and the roles refused.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type TestStaff, createStaff } from '../helpers/staff.ts';
import { v1 } from '../helpers/v1.ts';

let t: TestApp;
let a: Customer;
let support: TestStaff;
let support2: TestStaff;
let billing: TestStaff;
let readonly: TestStaff;

const MESSAGE = 'My server web-1 does not boot since the reinstall this morning.';

before(async () => {
  t = await startApp();
  a = await createCustomer(t);
  support = await createStaff(t, 'support');
  support2 = await createStaff(t, 'support');
  billing = await createStaff(t, 'billing');
  readonly = await createStaff(t, 'readonly');
});

async function open(body: Record<string, unknown> = {}, cust = a) {
  const res = await call(t.app, 'POST', '/v2/tickets', { key: cust.key, body: { subject: 'Server down', message: MESSAGE, ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data as { id: string; status: string };
}

const as = (member: TestStaff, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(t.app, method, url, { key: member.token, body });
const ids = (res: Parameters<typeof json>[0]) => json(res).data.map((x: { id: string }) => x.id);
const fields = (res: Parameters<typeof json>[0]) => json(res).error.errors.map((e: { field: string }) => e.field);

test('assign: PATCH assignee_id shows {id, name} to staff; null unassigns; unknown or disabled member is 422', async () => {
  const ticket = await open();
  const res = await as(support, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: support.id });
  assert.equal(res.statusCode, 200, res.body);
  const name = json(await adminCall(t, 'GET', `/admin/v1/staff/${support.id}`)).data.name;
  assert.deepEqual(json(res).data.assignee, { id: support.id, name });
  assert.equal(json(res).data.status, 'open', 'assigning changes no state');
  assert.deepEqual(json(await adminCall(t, 'GET', `/admin/v1/tickets/${ticket.id}`)).data.assignee, { id: support.id, name });
  const listed = json(await adminCall(t, 'GET', `/admin/v1/tickets?account_id=${a.accountId}&per_page=100`)).data.find((x: { id: string }) => x.id === ticket.id);
  assert.deepEqual(listed.assignee, { id: support.id, name });

  for (const [body, why] of [[{ assignee_id: 'stf_nobody' }, /no staff member stf_nobody/], [{ assignee_id: '' }, /./], [{ assignee_id: 7 }, /./]] as const) {
    const r = await as(support, 'PATCH', `/admin/v1/tickets/${ticket.id}`, body);
    assert.equal(r.statusCode, 422, JSON.stringify(body));
    assert.deepEqual(fields(r), ['assignee_id']);
    assert.match(json(r).error.errors[0].message, why);
  }
  const gone = await createStaff(t, 'support');
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/staff/${gone.id}`, { status: 'disabled' })).statusCode, 200);
  const disabled = await as(support, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: gone.id });
  assert.equal(disabled.statusCode, 422);
  assert.match(json(disabled).error.errors[0].message, /disabled/);
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/tickets/${ticket.id}`)).data.assignee.id, support.id, 'a refused change changes nothing');

  const notAnswering = await as(support, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: billing.id });
  assert.equal(notAnswering.statusCode, 422);
  assert.match(json(notAnswering).error.errors[0].message, /billing, a role that does not answer tickets/);

  const un = await as(support2, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: null });
  assert.equal(un.statusCode, 200);
  assert.equal(json(un).data.assignee, null);
  assert.equal((await as(support, 'PATCH', '/admin/v1/tickets/100000', { assignee_id: support.id })).statusCode, 404);

  // Assignment and status in one PATCH: both, or neither.
  const both = json(await as(support, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: support2.id, status: 'in_progress' })).data;
  assert.equal(both.status, 'in_progress');
  assert.equal(both.assignee.id, support2.id);

  // The audit log names the member who assigned.
  const audit = json(await adminCall(t, 'GET', `/admin/v1/audit-log?target_type=ticket&target_id=${ticket.id}&action=updateStaffTicket`)).data;
  assert.ok(audit.some((e: { actor: { id: string }; changes: Record<string, unknown> }) => e.actor.id === support.id && e.changes.assignee_id === support.id));
});

test('assignees: active members of the roles that answer tickets, by name, for every role that reads tickets', async () => {
  const res = await as(readonly, 'GET', '/admin/v1/ticket-assignees');
  assert.equal(res.statusCode, 200, res.body);
  const list = json(res).data as { id: string; name: string; role: string }[];
  const byId = new Map(list.map((m) => [m.id, m]));
  assert.equal(byId.get(support.id)?.role, 'support');
  assert.ok(byId.has(support2.id));
  for (const m of [billing, readonly]) assert.ok(!byId.has(m.id), m.role);
  assert.ok(list.every((m) => ['owner', 'admin', 'support'].includes(m.role)));
  const names = list.map((m) => m.name);
  assert.deepEqual(names, [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
  const disabled = await createStaff(t, 'support');
  await adminCall(t, 'PATCH', `/admin/v1/staff/${disabled.id}`, { status: 'disabled' });
  assert.ok(!json(await as(support, 'GET', '/admin/v1/ticket-assignees')).data.some((m: { id: string }) => m.id === disabled.id));
  assert.equal((await as(support, 'GET', '/admin/v1/ticket-assignees?x=1')).statusCode, 422);
});

test('the customer never sees the assignee: v2, v1 and the events carry none', async () => {
  const c = await createCustomer(t);
  const ticket = await open({}, c);
  await as(support, 'PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: support.id });
  await as(support, 'POST', `/admin/v1/tickets/${ticket.id}/replies`, { message: 'Looking at it now.' });
  for (const url of [`/v2/tickets/${ticket.id}`, '/v2/tickets', `/v1/tickets/${ticket.id}`, '/v1/tickets', '/v2/events?resource_type=ticket']) {
    const res = url.startsWith('/v1/') ? await v1(t.app, 'GET', url, { key: c.key }) : await call(t.app, 'GET', url, { key: c.key });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    assert.doesNotMatch(res.body, /assignee|staff_id|stf_/, url);
    assert.ok(!res.body.includes(support.id), url);
  }
  const snap = await t.database.db.selectFrom('events').select('data').where('resource_id', '=', ticket.id).execute();
  assert.ok(snap.length >= 2);
  for (const e of snap) assert.ok(!JSON.stringify(e.data).includes(support.id), 'the stored snapshot leaves the assignee out');
});

test('queue: department + status + assignee combine; me, none, a member; search by number or subject', async () => {
  const c = await createCustomer(t);
  const mine = await open({ department_id: 1, subject: 'Kernel panic on boot' }, c);
  const theirs = await open({ department_id: 1, subject: 'Disk full' }, c);
  const nobodys = await open({ department_id: 1, subject: 'Reverse DNS' }, c);
  const billingDept = await open({ department_id: 2, subject: 'Invoice question' }, c);
  const mineClosed = await open({ department_id: 1, subject: 'Old kernel question' }, c);
  for (const [tk, who] of [[mine, support], [theirs, support2], [billingDept, support], [mineClosed, support]] as const) {
    assert.equal((await as(support, 'PATCH', `/admin/v1/tickets/${tk.id}`, { assignee_id: who.id })).statusCode, 200);
  }
  await as(support, 'PATCH', `/admin/v1/tickets/${mineClosed.id}`, { status: 'closed' });
  const q = (member: TestStaff, query: string) => as(member, 'GET', `/admin/v1/tickets?account_id=${c.accountId}&per_page=100&${query}`);

  assert.deepEqual(ids(await q(support, 'assignee=me')), [mineClosed.id, billingDept.id, mine.id]);
  assert.deepEqual(ids(await q(support, 'assignee=me&department_id=1&status=open')), [mine.id]);
  assert.deepEqual(ids(await q(support2, 'assignee=me&department_id=1')), [theirs.id]);
  assert.deepEqual(ids(await q(support, `assignee=${support2.id}`)), [theirs.id]);
  assert.deepEqual(ids(await q(support, 'assignee=none&department_id=1&status=open')), [nobodys.id]);
  assert.deepEqual(ids(await q(support, 'department_id=1&status=closed')), [mineClosed.id]);
  assert.deepEqual(ids(await q(readonly, 'assignee=me')), [], 'a member with no tickets of its own');
  const paged = json(await as(support, 'GET', `/admin/v1/tickets?account_id=${c.accountId}&assignee=me&per_page=2&page=2`));
  assert.deepEqual(paged.data.map((x: { id: string }) => x.id), [mine.id]);
  assert.equal(paged.meta.pagination.total, 3);

  assert.deepEqual(ids(await q(support, 'q=kernel')), [mineClosed.id, mine.id], 'subject, any case');
  assert.deepEqual(ids(await q(support, `q=${mine.id}`)), [mine.id], 'the ticket number');
  assert.deepEqual(ids(await q(support, 'q=kernel&status=open')), [mine.id]);
  assert.deepEqual(ids(await q(support, 'q=100%25')), [], 'a % is a character, not a wildcard');
  assert.deepEqual(ids(await q(support, 'q=_')), []);
});

test('queue: ADMIN_TOKEN has no tickets of its own (assignee=me is 422); an unknown member is 422; bad filters are 422', async () => {
  const me = await adminCall(t, 'GET', '/admin/v1/tickets?assignee=me');
  assert.equal(me.statusCode, 422);
  assert.deepEqual(fields(me), ['assignee']);
  assert.match(json(me).error.errors[0].message, /ADMIN_TOKEN is no staff member/);
  const unknown = await as(support, 'GET', '/admin/v1/tickets?assignee=stf_nobody');
  assert.equal(unknown.statusCode, 422);
  assert.deepEqual(fields(unknown), ['assignee']);
  for (const query of ['assignee=', 'q=', `q=${'x'.repeat(201)}`]) {
    const res = await as(support, 'GET', `/admin/v1/tickets?${query}`);
    assert.equal(res.statusCode, 422, query);
  }
  assert.equal((await adminCall(t, 'GET', '/admin/v1/tickets?assignee=none')).statusCode, 200);
});

test('who wrote it: staff messages name their member; ADMIN_TOKEN\'s and the customer\'s name none', async () => {
  const ticket = await open();
  await as(support, 'POST', `/admin/v1/tickets/${ticket.id}/notes`, { message: 'Checking the boot log.' });
  await adminCall(t, 'POST', `/admin/v1/tickets/${ticket.id}/replies`, { message: 'Fixed.' });
  const d = json(await as(support2, 'GET', `/admin/v1/tickets/${ticket.id}`)).data;
  const name = json(await adminCall(t, 'GET', `/admin/v1/staff/${support.id}`)).data.name;
  assert.deepEqual(d.messages.map((m: { author: string; internal: boolean; staff: unknown }) => [m.author, m.internal, m.staff]), [
    ['customer', false, null], ['staff', true, { id: support.id, name }], ['staff', false, null],
  ]);
});

test('bulk close: closes the open ones, reports closed and unknown ones, one ticket.closed each', async () => {
  const c = await createCustomer(t);
  const t1 = await open({}, c);
  const t2 = await open({}, c);
  const t3 = await open({}, c);
  await call(t.app, 'POST', `/v2/tickets/${t3.id}/close`, { key: c.key });
  const deleted = await open({}, c);
  await adminCall(t, 'DELETE', `/admin/v1/tickets/${deleted.id}`);
  const res = await as(support, 'POST', '/admin/v1/tickets/close', { ids: [t2.id, t1.id, t3.id, deleted.id, '999999999'] });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, { closed: [t2.id, t1.id], already_closed: [t3.id], not_found: [deleted.id, '999999999'] });
  for (const tk of [t1, t2]) {
    const got = json(await call(t.app, 'GET', `/v2/tickets/${tk.id}`, { key: c.key })).data;
    assert.equal(got.status, 'closed');
    assert.ok(got.closed_at);
  }
  const events = json(await call(t.app, 'GET', '/v2/events?resource_type=ticket&per_page=100', { key: c.key })).data;
  const closedEvents = events.filter((e: { type: string }) => e.type === 'ticket.closed').map((e: { resource: { id: string } }) => e.resource.id).sort();
  assert.deepEqual(closedEvents, [t1.id, t2.id, t3.id].sort(), 'one each; none for the already closed one again');
  const again = json(await as(support, 'POST', '/admin/v1/tickets/close', { ids: [t1.id] })).data;
  assert.deepEqual(again, { closed: [], already_closed: [t1.id], not_found: [] });
  const audit = json(await adminCall(t, 'GET', '/admin/v1/audit-log?action=closeTickets')).data;
  assert.ok(audit.some((e: { actor: { id: string }; changes: { ids: string[] } }) => e.actor.id === support.id && e.changes.ids.includes(t1.id)));
});

test('bulk close: bad input is 422 and closes nothing', async () => {
  const ticket = await open();
  for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: [ticket.id, ticket.id] }, { ids: [''] }, { ids: Array.from({ length: 101 }, (_, i) => String(100000 + i)) }, { ids: [ticket.id], force: true }]) {
    const res = await as(support, 'POST', '/admin/v1/tickets/close', body);
    assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 60));
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
  }
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/tickets/${ticket.id}`)).data.status, 'open');
});

test('roles: billing and readonly read the queue but may not assign or close (403, nothing changed)', async () => {
  const ticket = await open();
  for (const member of [billing, readonly]) {
    assert.equal((await as(member, 'GET', '/admin/v1/tickets?assignee=none')).statusCode, 200);
    for (const [method, url, body] of [
      ['PATCH', `/admin/v1/tickets/${ticket.id}`, { assignee_id: member.id }],
      ['POST', '/admin/v1/tickets/close', { ids: [ticket.id] }],
    ] as const) {
      const res = await as(member, method, url, body);
      assert.equal(res.statusCode, 403, `${member.role} ${method} ${url}`);
      assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    }
  }
  const d = json(await adminCall(t, 'GET', `/admin/v1/tickets/${ticket.id}`)).data;
  assert.equal(d.status, 'open');
  assert.equal(d.assignee, null);
});
