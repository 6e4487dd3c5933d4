// Canned replies (/admin/v1/canned-replies): create, list (by title; a department's with the
// general ones), read, change, delete; bad input, unknown ids, and the roles refused.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, adminCall, call, json, startApp } from '../helpers/app.ts';
import { type TestStaff, createStaff } from '../helpers/staff.ts';

let t: TestApp;
let support: TestStaff;
let billing: TestStaff;
let readonly: TestStaff;

before(async () => {
  t = await startApp();
  support = await createStaff(t, 'support');
  billing = await createStaff(t, 'billing');
  readonly = await createStaff(t, 'readonly');
});

const as = (member: TestStaff, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(t.app, method, url, { key: member.token, body });
const fields = (res: Parameters<typeof json>[0]) => json(res).error.errors.map((e: { field: string }) => e.field).sort();

async function create(body: Record<string, unknown>) {
  const res = await as(support, 'POST', '/admin/v1/canned-replies', body);
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

test('create: 201 with Location; trimmed text; the department by id and name; audited as the member', async () => {
  const res = await as(support, 'POST', '/admin/v1/canned-replies', { title: '  Reboot advice ', body: ' Please reboot from the panel and tell us what you see.\n', department_id: 1 });
  assert.equal(res.statusCode, 201, res.body);
  const r = json(res).data;
  assert.equal(res.headers.location, `http://api.test/admin/v1/canned-replies/${r.id}`);
  assert.deepEqual({ ...r, created_at: 'x', updated_at: 'x' }, {
    id: r.id, title: 'Reboot advice', body: 'Please reboot from the panel and tell us what you see.',
    department: { id: 1, name: 'Technical Support' }, created_at: 'x', updated_at: 'x',
  });
  const general = await create({ title: 'Thanks', body: 'Thank you for your patience.' });
  assert.equal(general.department, null);
  const audit = json(await adminCall(t, 'GET', '/admin/v1/audit-log?action=createCannedReply')).data;
  // The row commits with the create, before its Location is known: the changes say what was made.
  assert.ok(audit.some((e: { actor: { id: string }; target: { type: string }; changes: { title: string } }) => e.actor.id === support.id && e.target.type === 'canned_reply' && e.changes.title === '  Reboot advice '), JSON.stringify(audit));
});

test('create: bad input is 422 naming each field', async () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{}, ['body', 'title']],
    [{ title: '   ', body: 'x' }, ['title']],
    [{ title: 'x', body: ' \n ' }, ['body']],
    [{ title: 'x'.repeat(201), body: 'x' }, ['title']],
    [{ title: 'x', body: 'x'.repeat(10_001) }, ['body']],
    [{ title: 'x', body: 'x', department_id: 4 }, ['department_id']],
    [{ title: 'x', body: 'x', department_id: 999 }, ['department_id']],
    [{ title: 'x', body: 'x', department_id: 'one' }, ['department_id']],
    [{ title: 'x', body: 'x', colour: 'red' }, ['colour']],
  ];
  for (const [body, expected] of cases) {
    const res = await as(support, 'POST', '/admin/v1/canned-replies', body);
    assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 60));
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
    assert.deepEqual(fields(res), expected, JSON.stringify(body).slice(0, 60));
  }
});

test('list: by title, paged; department_id gives its own and the general ones', async () => {
  const sales = await create({ title: 'Zz sales pricing', body: 'Our prices are on the website.', department_id: 3 });
  const tech = await create({ title: 'Zz tech logs', body: 'Please send us the logs.', department_id: 1 });
  const general = await create({ title: 'Zz general hello', body: 'Hello!' });
  const all = json(await as(readonly, 'GET', '/admin/v1/canned-replies?per_page=100')).data;
  const titles = all.map((r: { title: string }) => r.title);
  assert.deepEqual(titles, [...titles].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
  for (const r of [sales, tech, general]) assert.ok(all.some((x: { id: number }) => x.id === r.id));
  const forTech = json(await as(support, 'GET', '/admin/v1/canned-replies?department_id=1&per_page=100')).data.map((r: { id: number }) => r.id);
  assert.ok(forTech.includes(tech.id) && forTech.includes(general.id) && !forTech.includes(sales.id));
  const paged = json(await as(support, 'GET', '/admin/v1/canned-replies?per_page=1&page=2'));
  assert.equal(paged.data.length, 1);
  assert.ok(paged.meta.pagination.total >= 3);
  for (const q of ['department_id=x', 'per_page=101', 'colour=red']) {
    assert.equal((await as(support, 'GET', `/admin/v1/canned-replies?${q}`)).statusCode, 422, q);
  }
});

test('get, change, delete; unknown ids are 404; bad changes 422', async () => {
  const r = await create({ title: 'Draft', body: 'First words.', department_id: 1 });
  assert.deepEqual(json(await as(billing, 'GET', `/admin/v1/canned-replies/${r.id}`)).data, r);
  const changed = await as(support, 'PATCH', `/admin/v1/canned-replies/${r.id}`, { title: 'Final', department_id: null });
  assert.equal(changed.statusCode, 200, changed.body);
  assert.equal(json(changed).data.title, 'Final');
  assert.equal(json(changed).data.body, 'First words.', 'left out: kept');
  assert.equal(json(changed).data.department, null);
  const moved = json(await as(support, 'PATCH', `/admin/v1/canned-replies/${r.id}`, { body: 'Better words.', department_id: 2 })).data;
  assert.deepEqual([moved.body, moved.department], ['Better words.', { id: 2, name: 'Billing' }]);
  for (const body of [{}, { title: '' }, { body: '  ' }, { department_id: 4 }, { id: 5 }]) {
    const res = await as(support, 'PATCH', `/admin/v1/canned-replies/${r.id}`, body);
    assert.equal(res.statusCode, 422, JSON.stringify(body));
  }
  const del = await as(support, 'DELETE', `/admin/v1/canned-replies/${r.id}`);
  assert.equal(del.statusCode, 200);
  assert.equal(json(del).data.id, r.id);
  for (const [method, body] of [['GET', undefined], ['PATCH', { title: 'x' }], ['DELETE', undefined]] as const) {
    const res = await as(support, method, `/admin/v1/canned-replies/${r.id}`, body);
    assert.equal(res.statusCode, 404, method);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  }
  assert.equal((await as(support, 'GET', '/admin/v1/canned-replies/abc')).statusCode, 422);
});

test('roles: billing and readonly read but may not write (403, nothing changed); no token is 401', async () => {
  const r = await create({ title: 'Kept', body: 'Unchanged.' });
  for (const member of [billing, readonly]) {
    assert.equal((await as(member, 'GET', '/admin/v1/canned-replies')).statusCode, 200);
    for (const [method, url, body] of [
      ['POST', '/admin/v1/canned-replies', { title: 'x', body: 'y' }],
      ['PATCH', `/admin/v1/canned-replies/${r.id}`, { title: 'Changed' }],
      ['DELETE', `/admin/v1/canned-replies/${r.id}`, undefined],
    ] as const) {
      const res = await as(member, method, url, body);
      assert.equal(res.statusCode, 403, `${member.role} ${method}`);
      assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    }
  }
  assert.deepEqual(json(await adminCall(t, 'GET', `/admin/v1/canned-replies/${r.id}`)).data, r);
  assert.equal((await call(t.app, 'GET', '/admin/v1/canned-replies')).statusCode, 401);
});
