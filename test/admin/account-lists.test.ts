// Opening an account in one step (account, deposit, key: all or nothing) and the operator's
// lists: accounts (search, status, pages), an account's API keys, its ledger.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const tag = randomBytes(4).toString('hex');
const email = (name: string) => `${name}-${tag}@example.com`;

async function countWhere(emailText: string): Promise<{ accounts: number; ledger: number; keys: number }> {
  const accounts = await t.database.db.selectFrom('accounts').select('id').where('email', '=', emailText).execute();
  const ids = accounts.map((a) => a.id);
  if (ids.length === 0) return { accounts: 0, ledger: 0, keys: 0 };
  const ledger = await t.database.db.selectFrom('transactions').select('id').where('account_id', 'in', ids).execute();
  const keys = await t.database.db.selectFrom('api_keys').select('id').where('account_id', 'in', ids).execute();
  return { accounts: ids.length, ledger: ledger.length, keys: keys.length };
}

test('POST /accounts with deposit and api_key: one answer with the funded account, the deposit and the key secret', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/accounts', {
    email: email('open'), name: 'Open Ltd', country: 'de',
    deposit: { amount: '150.5' },
    api_key: { ip_allowlist: ['127.0.0.1', '10.0.0.0/8'], scopes: ['billing:read'] },
  });
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.match(d.id, /^acc_/);
  assert.equal(d.email, email('open'));
  assert.equal(d.country, 'DE');
  assert.equal(d.status, 'active');
  assert.deepEqual(d.balance, { amount: '150.50', currency: 'USD' }, 'the balance after the deposit');
  assert.equal(d.deposit.type, 'deposit');
  assert.deepEqual(d.deposit.amount, { amount: '150.50', currency: 'USD' });
  assert.equal(d.deposit.description, 'Initial deposit');
  assert.match(d.deposit.created_at, TIMESTAMP);
  assert.match(d.api_key.id, /^key_/);
  assert.equal(d.api_key.name, 'default');
  assert.deepEqual(d.api_key.ip_allowlist, ['127.0.0.1/32', '10.0.0.0/8']);
  assert.deepEqual(d.api_key.scopes, ['billing:read']);
  assert.equal(d.api_key.is_test, false);
  assert.match(d.api_key.key, /^hc_live_[0-9A-Za-z]{40}$/);
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key: d.api_key.key });
  assert.equal(bal.statusCode, 200, bal.body);
  assert.equal(json(bal).data.balance.amount, '150.50');
  // Without the extras the answer is the account alone.
  const plain = json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email('plain'), name: 'Plain' })).data;
  assert.equal('deposit' in plain, false);
  assert.equal('api_key' in plain, false);
  assert.equal(plain.balance.amount, '0.00');
});

test('POST /accounts checks every part before writing anything: all problems at once, nothing created', async () => {
  const e = email('bad');
  const res = await adminCall(t, 'POST', '/admin/v1/accounts', {
    email: e, name: 'Bad',
    deposit: { amount: '0' },
    api_key: { ip_allowlist: ['127.0.0.1', '999.0.0.1', 'not-an-ip'] },
  });
  assert.equal(res.statusCode, 422, res.body);
  const fields = json(res).error.errors.map((x: { field: string }) => x.field).sort();
  assert.deepEqual(fields, ['api_key.ip_allowlist[1]', 'api_key.ip_allowlist[2]', 'deposit.amount']);
  assert.deepEqual(await countWhere(e), { accounts: 0, ledger: 0, keys: 0 });
  const tooMuch = await adminCall(t, 'POST', '/admin/v1/accounts', { email: e, name: 'Bad', deposit: { amount: '10000000.01' } });
  assert.equal(json(tooMuch).error.errors[0].field, 'deposit.amount');
  assert.match(json(tooMuch).error.errors[0].message, /at most 10000000\.00/);
  const schema = await adminCall(t, 'POST', '/admin/v1/accounts', { email: e, name: 'Bad', deposit: { amount: 5 }, api_key: { ip_allowlist: [], extra: 1 } });
  assert.equal(schema.statusCode, 422);
  assert.deepEqual(await countWhere(e), { accounts: 0, ledger: 0, keys: 0 });
});

test('POST /accounts is one transaction: a failure at the key step rolls back the account and its deposit', async () => {
  const e = email('atomic');
  // Make the key insert fail after the account and the deposit were written.
  await sql`CREATE FUNCTION test_refuse_key() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`.execute(t.database.db);
  await sql`CREATE TRIGGER test_refuse_key BEFORE INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION test_refuse_key()`.execute(t.database.db);
  try {
    const res = await adminCall(t, 'POST', '/admin/v1/accounts', { email: e, name: 'Atomic', deposit: { amount: '20.00' }, api_key: { ip_allowlist: ['127.0.0.1'] } });
    assert.equal(res.statusCode, 500, res.body);
    assert.equal(json(res).error.code, 'INTERNAL_ERROR');
  } finally {
    await sql`DROP TRIGGER test_refuse_key ON api_keys`.execute(t.database.db);
    await sql`DROP FUNCTION test_refuse_key()`.execute(t.database.db);
  }
  assert.deepEqual(await countWhere(e), { accounts: 0, ledger: 0, keys: 0 }, 'no half-made account');
  // A taken email likewise leaves no deposit or key behind, and the first account is untouched.
  const first = json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: e, name: 'First' })).data;
  const dup = await adminCall(t, 'POST', '/admin/v1/accounts', { email: e.toUpperCase(), name: 'Dup', deposit: { amount: '5' }, api_key: { ip_allowlist: ['::1'] } });
  assert.equal(dup.statusCode, 422);
  assert.equal(json(dup).error.errors[0].field, 'email');
  assert.deepEqual(await countWhere(e), { accounts: 1, ledger: 0, keys: 0 });
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${first.id}`)).data.balance.amount, '0.00');
});

test('GET /accounts: newest first, search by part of the email (any case, wildcards literal), status filter, pages', async () => {
  const made: string[] = [];
  for (const n of ['list-a', 'list-b', 'list-c']) made.push(json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: email(n), name: n })).data.id);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${made[1]}`, { status: 'suspended' });
  const found = await adminCall(t, 'GET', `/admin/v1/accounts?email=LIST-&per_page=2`);
  assert.equal(found.statusCode, 200, found.body);
  const body = json(found);
  assert.deepEqual(body.data.map((a: { id: string }) => a.id), [made[2], made[1]]);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 2, total: 3, total_pages: 2 });
  assert.equal(body.data[0].balance.amount, '0.00');
  const page2 = json(await adminCall(t, 'GET', `/admin/v1/accounts?email=list-&per_page=2&page=2`));
  assert.deepEqual(page2.data.map((a: { id: string }) => a.id), [made[0]]);
  const past = json(await adminCall(t, 'GET', `/admin/v1/accounts?email=list-&page=9`));
  assert.deepEqual(past.data, []);
  assert.equal(past.meta.pagination.total, 3);
  const suspended = json(await adminCall(t, 'GET', `/admin/v1/accounts?email=${tag}&status=suspended`));
  assert.deepEqual(suspended.data.map((a: { id: string }) => a.id), [made[1]]);
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/accounts?email=%25')).meta.pagination.total, 0, '% is a character, not a wildcard');
  const all = json(await adminCall(t, 'GET', '/admin/v1/accounts'));
  assert.ok(all.meta.pagination.total >= 3);
  for (const [q, field] of [['status=gone', 'status'], ['page=0', 'page'], ['per_page=101', 'per_page'], ['emial=x', 'emial']]) {
    const bad = await adminCall(t, 'GET', `/admin/v1/accounts?${q}`);
    assert.equal(bad.statusCode, 422, q);
    assert.equal(json(bad).error.errors[0].field, field, q);
  }
});

test('GET /accounts/{id}/api-keys: every key with its state, never a secret; unknown account 404', async () => {
  const c = await createCustomer(t);
  const second = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'second', ip_allowlist: ['::1'], is_test: true })).data;
  await adminCall(t, 'DELETE', `/admin/v1/api-keys/${c.keyId}`);
  const res = await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/api-keys`);
  assert.equal(res.statusCode, 200, res.body);
  const keys = json(res).data;
  assert.deepEqual(keys.map((k: { id: string; status: string }) => [k.id, k.status]), [[c.keyId, 'revoked'], [second.id, 'active']]);
  assert.equal(keys[1].is_test, true);
  assert.ok(!res.body.includes(c.key) && !res.body.includes(second.key) && !res.body.includes('key_hash'), 'no secret, no hash');
  assert.deepEqual(json(res).meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/api-keys?per_page=1&page=2`)).data[0].id, second.id);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/accounts/acc_nobody/api-keys')).statusCode, 404);
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/accounts/acc_nobody/api-keys')).error.code, 'RESOURCE_NOT_FOUND');
});

test('GET /accounts/{id}/transactions: the ledger newest first, type filter, pages; unknown account 404', async () => {
  const c = await createCustomer(t, { deposit: '10.00' });
  await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '2.50', description: 'Cheque' });
  const res = await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/transactions`);
  assert.equal(res.statusCode, 200, res.body);
  const rows = json(res).data;
  assert.deepEqual(rows.map((r: { amount: { amount: string }; description: string }) => [r.amount.amount, r.description]), [['2.50', 'Cheque'], ['10.00', 'Deposit']]);
  assert.equal(rows[0].type, 'deposit');
  assert.match(rows[0].created_at, TIMESTAMP);
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/transactions?type=refund`)).meta.pagination.total, 0);
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/transactions?per_page=1&page=2`)).data[0].description, 'Deposit');
  assert.equal((await adminCall(t, 'GET', '/admin/v1/accounts/acc_nobody/transactions')).statusCode, 404);
  // Admin only: a customer key is no admin token.
  assert.equal((await call(t.app, 'GET', `/admin/v1/accounts/${c.accountId}/transactions`, { key: c.key })).statusCode, 401);
});
