// Admin accounts: create, read, update (profile and status), deposits.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const email = (tag = 'a') => `${tag}-${randomBytes(5).toString('hex')}@example.com`;

type Res = Awaited<ReturnType<typeof call>>;

/** 422 VALIDATION_FAILED naming exactly these fields, one item each. */
function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  const { error } = json(res);
  assert.equal(error.code, 'VALIDATION_FAILED');
  assert.match(error.doc_url, /#VALIDATION_FAILED$/);
  const got = (error.errors as { field: string; code: string; message: string }[]).map((e) => e.field);
  assert.deepEqual([...got].sort(), [...fields].sort(), res.body);
  for (const e of error.errors) {
    assert.equal(e.code, 'INVALID');
    assert.ok(e.message.length > 0);
  }
}

function assertNotFound(res: Res) {
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
}

async function newAccount(body: Record<string, unknown> = {}) {
  const res = await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: 'Someone', ...body });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

// ---- create ----------------------------------------------------------------------------------

test('POST /accounts → 201 with the account shape; optional fields null', async () => {
  const e = email('new');
  const res = await adminCall(t, 'POST', '/admin/v1/accounts', { email: e, name: 'Ada Lovelace' });
  assert.equal(res.statusCode, 201, res.body);
  const body = json(res);
  assert.equal(body.meta.version, '2.0.0');
  assert.equal(typeof body.meta.request_id, 'string');
  const a = body.data;
  assert.match(a.id, /^acc_[0-9A-Za-z]+$/);
  assert.deepEqual({ ...a, id: undefined, created_at: undefined }, {
    id: undefined, email: e, name: 'Ada Lovelace', company: null, phone: null, country: null,
    status: 'active', balance: { amount: '0.00', currency: 'USD' }, created_at: undefined,
  });
  assert.match(a.created_at, TIMESTAMP);
  assert.ok(Math.abs(Date.parse(a.created_at) - Date.now()) < 60_000);
  // No secret or internal column leaks.
  assert.deepEqual(Object.keys(a).sort(), ['balance', 'company', 'country', 'created_at', 'email', 'id', 'name', 'phone', 'status']);
});

test('POST /accounts keeps the profile fields and upper-cases the country', async () => {
  const a = await newAccount({ company: 'Analytical Engines Ltd', phone: '+44 20 7946 0000', country: 'gb' });
  assert.equal(a.company, 'Analytical Engines Ltd');
  assert.equal(a.phone, '+44 20 7946 0000');
  assert.equal(a.country, 'GB');
  const again = json(await adminCall(t, 'GET', `/admin/v1/accounts/${a.id}`)).data;
  assert.deepEqual(again, a);
});

test('POST /accounts with explicit nulls for optional fields', async () => {
  const a = await newAccount({ company: null, phone: null, country: null });
  assert.equal(a.company, null);
  assert.equal(a.phone, null);
  assert.equal(a.country, null);
});

test('POST /accounts validation: one errors[] item per bad field', async () => {
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { name: 'No Email' }), ['email']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'not-an-email', name: 'X' }), ['email']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: '' }), ['name']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: 'X', nickname: 'x' }), ['nickname']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: 'X', country: 'usa' }), ['country']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: 'X', phone: 'call me' }), ['phone']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: 42 }), ['name']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: 'X', company: 'c'.repeat(201) }), ['company']);
  // Everything wrong at once: each field once.
  assertInvalid(
    await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'bad', name: '', country: 'usa', extra: 1 }),
    ['email', 'name', 'country', 'extra'],
  );
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', {}), ['email', 'name']);
});

test('POST /accounts: a name of only spaces is not a name', async () => {
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(), name: '   ' }), ['name']);
});

test('POST /accounts: a body that is not JSON, or not an object', async () => {
  const bad = await call(t.app, 'POST', '/admin/v1/accounts', {
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' }, body: '{"email":',
  });
  assert.equal(bad.statusCode, 400);
  assert.equal(json(bad).error.code, 'REQUEST_MALFORMED');
  const text = await call(t.app, 'POST', '/admin/v1/accounts', {
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'text/plain' }, body: 'hello',
  });
  assert.equal(text.statusCode, 415);
  assert.equal(json(text).error.code, 'UNSUPPORTED_MEDIA_TYPE');
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', [1, 2]), ['body']);
});

test('POST /accounts: duplicate email (any case) → 422 naming email, and nothing created', async () => {
  const e = email('dup');
  await newAccount({ email: e });
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: e, name: 'Again' }), ['email']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/accounts', { email: e.toUpperCase(), name: 'Again' }), ['email']);
  const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM accounts WHERE lower(email) = lower($1)', [e]);
  assert.equal(rows[0].n, 1);
});

// ---- read ------------------------------------------------------------------------------------

test('GET /accounts/:id → 200 the account; unknown → 404 RESOURCE_NOT_FOUND', async () => {
  const a = await newAccount();
  const res = await adminCall(t, 'GET', `/admin/v1/accounts/${a.id}`);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(json(res).data, a);
  const missing = await adminCall(t, 'GET', '/admin/v1/accounts/acc_doesnotexist');
  assertNotFound(missing);
  assert.match(json(missing).error.doc_url, /#RESOURCE_NOT_FOUND$/);
});

// ---- update ----------------------------------------------------------------------------------

test('PATCH /accounts/:id status: suspended, closed, active', async () => {
  const a = await newAccount();
  for (const status of ['suspended', 'closed', 'active']) {
    const res = await adminCall(t, 'PATCH', `/admin/v1/accounts/${a.id}`, { status });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.status, status);
    assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${a.id}`)).data.status, status);
  }
});

test('PATCH /accounts/:id profile fields; omitted fields stay, null clears', async () => {
  const a = await newAccount({ company: 'Old Co', phone: '+1 555 0100', country: 'US' });
  const newEmail = email('moved');
  const res = await adminCall(t, 'PATCH', `/admin/v1/accounts/${a.id}`, { email: newEmail, name: 'New Name', country: 'de', phone: null });
  assert.equal(res.statusCode, 200, res.body);
  const b = json(res).data;
  assert.deepEqual(b, { ...a, email: newEmail, name: 'New Name', country: 'DE', phone: null });
  const c = json(await adminCall(t, 'PATCH', `/admin/v1/accounts/${a.id}`, { company: null })).data;
  assert.equal(c.company, null);
  assert.equal(c.name, 'New Name');
});

test('PATCH /accounts/:id validation', async () => {
  const a = await newAccount();
  const url = `/admin/v1/accounts/${a.id}`;
  assertInvalid(await adminCall(t, 'PATCH', url, { status: 'deleted' }), ['status']);
  assertInvalid(await adminCall(t, 'PATCH', url, { status: 'SUSPENDED' }), ['status']);
  assertInvalid(await adminCall(t, 'PATCH', url, { email: 'nope' }), ['email']);
  assertInvalid(await adminCall(t, 'PATCH', url, { name: '' }), ['name']);
  assertInvalid(await adminCall(t, 'PATCH', url, { name: '  ' }), ['name']);
  assertInvalid(await adminCall(t, 'PATCH', url, { balance: '100.00' }), ['balance']);
  assertInvalid(await adminCall(t, 'PATCH', url, { status: 'gone', country: 'usa' }), ['status', 'country']);
  // An empty patch is a client mistake, as on the catalog.
  assertInvalid(await adminCall(t, 'PATCH', url, {}), ['body']);
  // Nothing changed by the refused requests.
  assert.deepEqual(json(await adminCall(t, 'GET', url)).data, a);
});

test('PATCH /accounts/:id to an email another account has → 422 email', async () => {
  const a = await newAccount();
  const b = await newAccount();
  assertInvalid(await adminCall(t, 'PATCH', `/admin/v1/accounts/${b.id}`, { email: a.email.toUpperCase() }), ['email']);
  // Its own email (another case) is fine.
  const res = await adminCall(t, 'PATCH', `/admin/v1/accounts/${a.id}`, { email: a.email.toUpperCase() });
  assert.equal(res.statusCode, 200, res.body);
});

test('PATCH /accounts/:id unknown id → 404', async () => {
  assertNotFound(await adminCall(t, 'PATCH', '/admin/v1/accounts/acc_nobody', { status: 'suspended' }));
  assertNotFound(await adminCall(t, 'PATCH', '/admin/v1/accounts/acc_nobody', { name: 'X' }));
});

test('a suspended or closed account is locked out of v2 until re-activated', async () => {
  const c = await createCustomer(t, { deposit: '10.00' });
  const balance = () => call(t.app, 'GET', '/v2/billing/balance', { key: c.key });
  assert.equal((await balance()).statusCode, 200);
  for (const status of ['suspended', 'closed']) {
    assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { status })).statusCode, 200);
    const res = await balance();
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(json(res).error.code, 'ACCOUNT_INACTIVE');
    assert.match(json(res).error.doc_url, /#ACCOUNT_INACTIVE$/);
  }
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { status: 'active' })).statusCode, 200);
  const res = await balance();
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).data.balance.amount, '10.00');
});

// ---- deposits --------------------------------------------------------------------------------

test('POST /accounts/:id/deposits → 201 deposit transaction; balance follows', async () => {
  const c = await createCustomer(t);
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '150.00' });
  assert.equal(res.statusCode, 201, res.body);
  const tx = json(res).data;
  assert.equal(tx.type, 'deposit');
  assert.deepEqual(tx.amount, { amount: '150.00', currency: 'USD' });
  assert.equal(tx.status, 'completed');
  assert.equal(typeof tx.description, 'string');
  assert.ok(Number.isInteger(tx.id));
  assert.match(tx.created_at, TIMESTAMP);

  const account = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}`)).data;
  assert.deepEqual(account.balance, { amount: '150.00', currency: 'USD' });
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key: c.key });
  assert.deepEqual(json(bal).data, { balance: { amount: '150.00', currency: 'USD' }, currency: 'USD' });

  // Short forms are accepted and add up exactly.
  for (const [amount, shown] of [['150', '150.00'], ['150.5', '150.50'], ['0.01', '0.01']]) {
    const r = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount });
    assert.equal(r.statusCode, 201, r.body);
    assert.equal(json(r).data.amount.amount, shown);
  }
  const after = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount;
  assert.equal(after, '450.51');
});

test('POST /accounts/:id/deposits keeps the description and shows it to the customer', async () => {
  const c = await createCustomer(t);
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '20.00', description: 'Wire transfer #4711' });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(json(res).data.description, 'Wire transfer #4711');
  const list = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key }));
  assert.equal(list.data.length, 1);
  assert.equal(list.data[0].description, 'Wire transfer #4711');
  assert.equal(list.data[0].id, json(res).data.id);
});

test('POST /accounts/:id/deposits rejects anything but a positive decimal string', async () => {
  const c = await createCustomer(t);
  const url = `/admin/v1/accounts/${c.accountId}/deposits`;
  for (const amount of ['0', '0.00', '-5', '1.234', 'abc', 150, '1e3', '', ' 5', '05', '5.', null, '10000000.01', '99999999.99']) {
    assertInvalid(await adminCall(t, 'POST', url, { amount }), ['amount']);
  }
  assertInvalid(await adminCall(t, 'POST', url, {}), ['amount']);
  assertInvalid(await adminCall(t, 'POST', url, { amount: '5.00', note: 'x' }), ['note']);
  assertInvalid(await adminCall(t, 'POST', url, { amount: '5.00', description: '' }), ['description']);
  // None of them moved money.
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}`)).data.balance.amount, '0.00');
  // The largest single deposit the ledger takes is accepted.
  const max = await adminCall(t, 'POST', url, { amount: '10000000.00' });
  assert.equal(max.statusCode, 201, max.body);
});

test('POST /accounts/:id/deposits for an unknown account → 404, nothing written', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/accounts/acc_nobody/deposits', { amount: '5.00' });
  assertNotFound(res);
  const { rows } = await t.database.pool.query("SELECT count(*)::int AS n FROM transactions WHERE account_id = 'acc_nobody'");
  assert.equal(rows[0].n, 0);
});

test('parallel deposits all land', async () => {
  const c = await createCustomer(t);
  const results = await Promise.all(Array.from({ length: 10 }, () => adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '1.10' })));
  for (const r of results) assert.equal(r.statusCode, 201);
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}`)).data.balance.amount, '11.00');
});
