// Idempotency-Key on POST /v2/servers: replay, conflict, concurrency, expiry, scope.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';
import { ledgerSumCents } from '../../src/db/queries/transactions.ts';
import { deleteExpiredIdempotencyKeys } from '../../src/db/queries/idempotency.ts';

let t: TestApp;

before(async () => {
  t = await startApp();
});

function post(c: Customer, key: string | undefined, body: unknown) {
  return call(t.app, 'POST', '/v2/servers', { key: c.key, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
}

async function balanceOf(c: Customer) {
  return json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount;
}

test('same key and body: the first response again, marked replayed, with no second charge', async () => {
  const c = await createCustomer(t, { deposit: '20.00' });
  const key = randomUUID();
  const body = serverBody({ name: 'idem-1.example.com' });
  const first = await post(c, key, body);
  assert.equal(first.statusCode, 201);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  // Key order in the body does not matter (canonical JSON).
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const second = await post(c, key.toUpperCase(), reordered);
  assert.equal(second.statusCode, 201);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.deepEqual(json(second).data, json(first).data);
  assert.notEqual(json(second).meta.request_id, json(first).meta.request_id);
  assert.equal(await balanceOf(c), '15.00');
  assert.equal(json(await call(t.app, 'GET', '/v2/servers', { key: c.key })).meta.pagination.total, 1);
});

test('same key, different body: 409 IDEMPOTENCY_KEY_CONFLICT, nothing charged', async () => {
  const c = await createCustomer(t, { deposit: '20.00' });
  const key = randomUUID();
  assert.equal((await post(c, key, serverBody({ name: 'idem-2.example.com' }))).statusCode, 201);
  const res = await post(c, key, serverBody({ name: 'idem-3.example.com' }));
  assert.equal(res.statusCode, 409);
  assert.equal(json(res).error.code, 'IDEMPOTENCY_KEY_CONFLICT');
  assert.equal(await balanceOf(c), '15.00');
});

test('keys belong to the account: another account may use the same key', async () => {
  const a = await createCustomer(t, { deposit: '10.00' });
  const b = await createCustomer(t, { deposit: '10.00' });
  const key = randomUUID();
  const body = serverBody({ name: 'shared-key.example.com' });
  const ra = await post(a, key, body);
  const rb = await post(b, key, body);
  assert.equal(ra.statusCode, 201);
  assert.equal(rb.statusCode, 201);
  assert.equal(rb.headers['idempotent-replayed'], undefined);
  assert.notEqual(json(ra).data.id, json(rb).data.id);
});

test('a failed request is not stored: the same key may be retried after fixing the cause', async () => {
  const c = await createCustomer(t, { deposit: '1.00' });
  const key = randomUUID();
  const body = serverBody({ name: 'retry.example.com' });
  const poor = await post(c, key, body);
  assert.equal(json(poor).error.code, 'INSUFFICIENT_BALANCE');
  await call(t.app, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { headers: { authorization: `Bearer ${t.adminToken}` }, body: { amount: '9.00' } });
  const ok = await post(c, key, body);
  assert.equal(ok.statusCode, 201);
  assert.equal(ok.headers['idempotent-replayed'], undefined);
  // A validation failure is not stored either.
  const key2 = randomUUID();
  assert.equal((await post(c, key2, serverBody({ plan_id: 999 }))).statusCode, 422);
  assert.equal((await post(c, key2, serverBody({ name: 'other-body.example.com' }))).statusCode, 201);
});

test('the key must be a UUID: 422 naming the header', async () => {
  const c = await createCustomer(t, { deposit: '10.00' });
  for (const bad of ['abc', '123e4567-e89b-12d3-a456-42661417400', `${randomUUID()}x`]) {
    const res = await post(c, bad, serverBody());
    assert.equal(res.statusCode, 422, bad);
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
    assert.equal(json(res).error.errors[0].field, 'Idempotency-Key');
  }
  assert.equal(await balanceOf(c), '10.00');
});

test('20 parallel duplicates with one key: one server, one charge, every answer the same server', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const key = randomUUID();
  const body = serverBody({ name: 'parallel-dup.example.com' });
  const results = await Promise.all(Array.from({ length: 20 }, () => post(c, key, body)));
  const ok = results.filter((r) => r.statusCode === 201);
  // A duplicate waits for the first to commit, then replays it.
  assert.equal(ok.length, 20, results.map((r) => r.statusCode).join(','));
  assert.equal(new Set(ok.map((r) => json(r).data.id)).size, 1);
  assert.equal(ok.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 19);
  assert.equal(await balanceOf(c), '95.00');
  const withdrawals = await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).where('type', '=', 'withdraw').execute();
  assert.equal(withdrawals.length, 1);
  assert.equal(await ledgerSumCents(t.database.db, c.accountId), 9500);
});

test('expired records no longer replay, and the clean-up query removes them (the job itself: test/jobs/maintenance.test.ts)', async () => {
  const c = await createCustomer(t, { deposit: '20.00' });
  const key = randomUUID();
  assert.equal((await post(c, key, serverBody({ name: 'exp-1.example.com' }))).statusCode, 201);
  await t.database.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('key', '=', key).execute();
  // Past 24 h the key is free again: a different body is a new request, not a conflict.
  const again = await post(c, key, serverBody({ name: 'exp-2.example.com' }));
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['idempotent-replayed'], undefined);
  await t.database.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('key', '=', key).execute();
  assert.ok((await deleteExpiredIdempotencyKeys(t.database.db)) >= 1);
  const left = await t.database.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute();
  assert.equal(left.length, 0);
});
