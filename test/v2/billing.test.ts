// GET /v2/billing/balance and /v2/billing/transactions: shapes, newest-first order, the type
// filter, pagination, and that a customer never sees another customer's money.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { charge, deposit, refund } from '../../src/core/billing/ledger.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function txs(key: string, query?: Record<string, string>) {
  return call(t.app, 'GET', '/v2/billing/transactions', { key, ...(query ? { query } : {}) });
}

function assertValidation(res: LightMyRequestResponse, field: string) {
  assert.equal(res.statusCode, 422, res.body);
  const e = json(res).error;
  assert.equal(e.code, 'VALIDATION_FAILED');
  assert.equal(e.errors[0].field, field);
}

test('GET /v2/billing/balance: money object and currency', async () => {
  const c = await createCustomer(t, { deposit: '25.50' });
  const res = await call(t.app, 'GET', '/v2/billing/balance', { key: c.key });
  assert.equal(res.statusCode, 200);
  const body = json(res);
  assert.deepEqual(body.data, { balance: { amount: '25.50', currency: 'USD' }, currency: 'USD' });
  assert.deepEqual(Object.keys(body.meta).sort(), ['request_id', 'version']);
  assert.equal(body.meta.version, '2.0.0');

  await charge(db, c.accountId, 2549, 'almost all of it');
  assert.deepEqual(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance, { amount: '0.01', currency: 'USD' });
  await charge(db, c.accountId, 1, 'the last cent');
  assert.deepEqual(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance, { amount: '0.00', currency: 'USD' });
});

test('GET /v2/billing/transactions: exact shape, newest first, decimal-string amounts', async () => {
  const c = await createCustomer(t);
  const dep = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '100', description: 'Wire transfer' })).data;
  await charge(db, c.accountId, 1234, 'Server web-1: first month');
  await refund(db, c.accountId, 5, 'Server web-1: unused hours');
  await deposit(db, c.accountId, 100_000_00, 'Big top-up');

  const res = await txs(c.key);
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 4, total_pages: 1 });
  for (const tx of body.data) {
    assert.deepEqual(Object.keys(tx).sort(), ['amount', 'created_at', 'description', 'id', 'status', 'type']);
    assert.ok(Number.isInteger(tx.id));
    assert.match(tx.created_at, TS);
    assert.equal(tx.status, 'completed');
  }
  const strip = (tx: Record<string, unknown>) => ({ type: tx.type, amount: tx.amount, description: tx.description });
  assert.deepEqual(body.data.map(strip), [
    { type: 'deposit', amount: { amount: '100000.00', currency: 'USD' }, description: 'Big top-up' },
    { type: 'refund', amount: { amount: '0.05', currency: 'USD' }, description: 'Server web-1: unused hours' },
    { type: 'withdraw', amount: { amount: '12.34', currency: 'USD' }, description: 'Server web-1: first month' },
    { type: 'deposit', amount: { amount: '100.00', currency: 'USD' }, description: 'Wire transfer' },
  ]);
  const ids = body.data.map((x: { id: number }) => x.id);
  assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first');
  assert.equal(ids.at(-1), dep.id, 'the id is the one the admin API reported');
  assert.deepEqual(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance, { amount: '100087.71', currency: 'USD' });
});

test('GET /v2/billing/transactions?type= filters; a bad type is 422', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  await charge(db, c.accountId, 1000, 'a');
  await charge(db, c.accountId, 500, 'b');
  await refund(db, c.accountId, 250, 'c');

  const w = json(await txs(c.key, { type: 'withdraw' }));
  assert.deepEqual(w.data.map((x: { description: string }) => x.description), ['b', 'a']);
  assert.deepEqual(w.meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
  const r = json(await txs(c.key, { type: 'refund' }));
  assert.deepEqual(r.data.map((x: { type: string; amount: { amount: string } }) => [x.type, x.amount.amount]), [['refund', '2.50']]);
  const d = json(await txs(c.key, { type: 'deposit' }));
  assert.deepEqual(d.data.map((x: { type: string }) => x.type), ['deposit']);
  const paged = json(await txs(c.key, { type: 'withdraw', per_page: '1', page: '2' }));
  assert.deepEqual(paged.data.map((x: { description: string }) => x.description), ['a']);
  assert.deepEqual(paged.meta.pagination, { page: 2, per_page: 1, total: 2, total_pages: 2 });

  for (const bad of ['charge', 'DEPOSIT', '', 'deposit,withdraw']) assertValidation(await txs(c.key, { type: bad }), 'type');
});

test('GET /v2/billing/transactions: pagination (default 25, per_page=2, past the end, bad values)', async () => {
  const c = await createCustomer(t);
  for (let i = 1; i <= 27; i++) await deposit(db, c.accountId, i, `deposit ${i}`);

  const first = json(await txs(c.key));
  assert.equal(first.data.length, 25);
  assert.deepEqual(first.meta.pagination, { page: 1, per_page: 25, total: 27, total_pages: 2 });
  assert.equal(first.data[0].description, 'deposit 27');
  assert.equal(first.data[24].description, 'deposit 3');
  const second = json(await txs(c.key, { page: '2' }));
  assert.deepEqual(second.data.map((x: { description: string }) => x.description), ['deposit 2', 'deposit 1']);
  assert.deepEqual(second.data.map((x: { amount: { amount: string } }) => x.amount.amount), ['0.02', '0.01']);

  const seen: string[] = [];
  for (let p = 1; p <= 14; p++) {
    const body = json(await txs(c.key, { page: String(p), per_page: '2' }));
    assert.deepEqual(body.meta.pagination, { page: p, per_page: 2, total: 27, total_pages: 14 });
    assert.equal(body.data.length, p < 14 ? 2 : 1);
    seen.push(...body.data.map((x: { description: string }) => x.description));
  }
  assert.deepEqual(seen, Array.from({ length: 27 }, (_, i) => `deposit ${27 - i}`));

  const past = json(await txs(c.key, { page: '15', per_page: '2' }));
  assert.deepEqual(past.data, []);
  assert.deepEqual(past.meta.pagination, { page: 15, per_page: 2, total: 27, total_pages: 14 });
  const all = json(await txs(c.key, { per_page: '100' }));
  assert.equal(all.data.length, 27);
  assert.equal(all.meta.pagination.total_pages, 1);

  const cases: [Record<string, string>, string][] = [
    [{ page: '0' }, 'page'], [{ page: 'abc' }, 'page'], [{ page: '1.5' }, 'page'], [{ page: '-2' }, 'page'],
    [{ per_page: '0' }, 'per_page'], [{ per_page: '101' }, 'per_page'], [{ per_page: 'x' }, 'per_page'],
  ];
  for (const [query, field] of cases) assertValidation(await txs(c.key, query), field);
});

test('an empty ledger is an empty first page', async () => {
  const c = await createCustomer(t);
  const body = json(await txs(c.key));
  assert.deepEqual(body.data, []);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 0, total_pages: 0 });
});

test("tenant isolation: A never sees B's balance or transactions", async () => {
  const a = await createCustomer(t, { deposit: '10.00' });
  const b = await createCustomer(t, { deposit: '999.99' });
  await charge(db, b.accountId, 99, 'B only: secret server');

  const balA = json(await call(t.app, 'GET', '/v2/billing/balance', { key: a.key })).data;
  assert.deepEqual(balA.balance, { amount: '10.00', currency: 'USD' });
  const listA = await txs(a.key, { per_page: '100' });
  const bodyA = json(listA);
  assert.equal(bodyA.meta.pagination.total, 1);
  assert.deepEqual(bodyA.data.map((x: { amount: { amount: string } }) => x.amount.amount), ['10.00']);
  assert.ok(!listA.body.includes('B only'));
  assert.ok(!listA.body.includes('999.99'));
  for (const type of ['withdraw', 'refund']) assert.equal(json(await txs(a.key, { type })).meta.pagination.total, 0);

  const balB = json(await call(t.app, 'GET', '/v2/billing/balance', { key: b.key })).data;
  assert.deepEqual(balB.balance, { amount: '999.00', currency: 'USD' });
  assert.equal(json(await txs(b.key)).meta.pagination.total, 2);
});

test('a suspended account is refused, a revoked key is invalid', async () => {
  const c = await createCustomer(t, { deposit: '1.00' });
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { status: 'suspended' })).statusCode, 200);
  const res = await call(t.app, 'GET', '/v2/billing/balance', { key: c.key });
  assert.equal(res.statusCode, 403);
  assert.equal(json(res).error.code, 'ACCOUNT_INACTIVE');

  const d = await createCustomer(t);
  await adminCall(t, 'DELETE', `/admin/v1/api-keys/${d.keyId}`);
  const revoked = await txs(d.key);
  assert.equal(revoked.statusCode, 401);
  assert.equal(json(revoked).error.code, 'AUTH_INVALID');
});
