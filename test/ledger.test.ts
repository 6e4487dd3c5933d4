// The ledger (src/core/billing/ledger.ts + the trigger and CHECK of migration 0001): money only
// moves through append-only rows, a balance never goes below zero whatever the concurrency,
// and the sum of the ledger is always the balance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { MAX_AMOUNT_CENTS, charge, deposit, getBalance, listTransactions, refund } from '../src/core/billing/ledger.ts';
import { ApiError } from '../src/core/errors.ts';
import { ledgerSumCents } from '../src/db/queries/transactions.ts';
import { call, createCustomer, json, startApp } from './helpers/app.ts';

const t = await startApp();
const db = t.database.db;

async function rowCount(accountId: string): Promise<number> {
  const r = await db.selectFrom('transactions').where('account_id', '=', accountId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

function isCode(code: string) {
  return (e: unknown) => e instanceof ApiError && e.code === code;
}

test('deposit, charge and refund move the balance and record balance_after', async () => {
  const c = await createCustomer(t);
  const d = await deposit(db, c.accountId, 1000, 'top-up');
  assert.equal(d.type, 'deposit');
  assert.equal(d.amount_cents, 1000);
  assert.equal(d.balance_after_cents, 1000);
  assert.equal(d.status, 'completed');
  const w = await charge(db, c.accountId, 999, 'server');
  assert.equal(w.type, 'withdraw');
  assert.equal(w.balance_after_cents, 1);
  const r = await refund(db, c.accountId, 500, 'unused hours');
  assert.equal(r.type, 'refund');
  assert.equal(r.balance_after_cents, 501);
  assert.equal(await getBalance(db, c.accountId), 501);
  assert.equal(await ledgerSumCents(db, c.accountId), 501);
  const page = await listTransactions(db, c.accountId, {}, { page: 1, perPage: 25 });
  assert.deepEqual(page.items.map((x) => x.id), [r.id, w.id, d.id]);
  assert.equal(page.total, 3);
});

test('a charge above the balance is INSUFFICIENT_BALANCE and writes nothing', async () => {
  const c = await createCustomer(t, { deposit: '5.00' });
  await assert.rejects(charge(db, c.accountId, 501, 'too much'), isCode('INSUFFICIENT_BALANCE'));
  assert.equal(await getBalance(db, c.accountId), 500);
  assert.equal(await rowCount(c.accountId), 1);
  // Exactly the balance is fine, and leaves zero; then even a cent is refused.
  await charge(db, c.accountId, 500, 'all of it');
  assert.equal(await getBalance(db, c.accountId), 0);
  await assert.rejects(charge(db, c.accountId, 1, 'one cent'), isCode('INSUFFICIENT_BALANCE'));
  assert.equal(await rowCount(c.accountId), 2);
  assert.equal(await ledgerSumCents(db, c.accountId), 0);
});

test('a refused charge inside a transaction leaves that transaction usable', async () => {
  // Bulk operations charge item by item in one transaction; one unaffordable item must not
  // poison the rest (PostgreSQL aborts a transaction whose statement failed, unless a savepoint).
  const c = await createCustomer(t, { deposit: '10.00' });
  await db.transaction().execute(async (trx) => {
    await charge(trx, c.accountId, 600, 'item 1');
    await assert.rejects(charge(trx, c.accountId, 600, 'item 2'), isCode('INSUFFICIENT_BALANCE'));
    await charge(trx, c.accountId, 300, 'item 3');
  });
  assert.equal(await getBalance(db, c.accountId), 100);
  const rows = await db.selectFrom('transactions').select('description').where('account_id', '=', c.accountId).orderBy('id').execute();
  assert.deepEqual(rows.map((r) => r.description), ['Deposit', 'item 1', 'item 3']);

  // And when the caller gives up, everything it wrote goes.
  await assert.rejects(db.transaction().execute(async (trx) => {
    await charge(trx, c.accountId, 50, 'rolled back');
    await assert.rejects(charge(trx, c.accountId, 51, 'refused'), isCode('INSUFFICIENT_BALANCE'));
    throw new Error('caller aborts');
  }), /caller aborts/);
  assert.equal(await getBalance(db, c.accountId), 100);
  assert.equal(await rowCount(c.accountId), 3);
});

test('amounts must be whole positive cents within the limit', async () => {
  const c = await createCustomer(t, { deposit: '1.00' });
  for (const bad of [0, -1, 1.5, Number.NaN, MAX_AMOUNT_CENTS + 1]) {
    await assert.rejects(deposit(db, c.accountId, bad, 'x'), isCode('VALIDATION_FAILED'), String(bad));
    await assert.rejects(charge(db, c.accountId, bad, 'x'), isCode('VALIDATION_FAILED'), String(bad));
    await assert.rejects(refund(db, c.accountId, bad, 'x'), isCode('VALIDATION_FAILED'), String(bad));
  }
  assert.equal(await rowCount(c.accountId), 1);
  const big = await deposit(db, c.accountId, MAX_AMOUNT_CENTS, 'largest single movement');
  assert.equal(big.balance_after_cents, MAX_AMOUNT_CENTS + 100);
});

test('an unknown account is RESOURCE_NOT_FOUND', async () => {
  await assert.rejects(deposit(db, 'acc_nope', 100, 'x'), isCode('RESOURCE_NOT_FOUND'));
  await assert.rejects(charge(db, 'acc_nope', 100, 'x'), isCode('RESOURCE_NOT_FOUND'));
  await assert.rejects(getBalance(db, 'acc_nope'), isCode('RESOURCE_NOT_FOUND'));
  assert.equal(Number((await db.selectFrom('transactions').where('account_id', '=', 'acc_nope').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 0);
});

test('the SQL itself refuses an overdraft, whoever writes', async () => {
  const c = await createCustomer(t, { deposit: '2.00' });
  await assert.rejects(
    db.insertInto('transactions').values({ account_id: c.accountId, type: 'withdraw', amount_cents: 201, description: 'direct' }).execute(),
    (e: unknown) => (e as { code?: string; constraint?: string }).code === '23514' && (e as { constraint?: string }).constraint === 'accounts_balance_not_negative',
  );
  assert.equal(await getBalance(db, c.accountId), 200);
  assert.equal(await rowCount(c.accountId), 1);
  await assert.rejects(sql`UPDATE accounts SET balance_cents = -1 WHERE id = ${c.accountId}`.execute(db), /only through a transactions row/);
  // Non-positive amounts and unknown types are refused too, so a "negative deposit" cannot drain.
  await assert.rejects(db.insertInto('transactions').values({ account_id: c.accountId, type: 'deposit', amount_cents: -500, description: 'x' }).execute());
  await assert.rejects(db.insertInto('transactions').values({ account_id: c.accountId, type: 'deposit', amount_cents: 0, description: 'x' }).execute());
  await assert.rejects(sql`INSERT INTO transactions (account_id, type, amount_cents, description) VALUES (${c.accountId}, 'gift', 5, 'x')`.execute(db));
  // balance_after is computed, not taken from the writer.
  const row = await sql<{ balance_after_cents: number }>`
    INSERT INTO transactions (account_id, type, amount_cents, description, balance_after_cents)
    VALUES (${c.accountId}, 'withdraw', 50, 'direct ok', 999999) RETURNING balance_after_cents`.execute(db);
  assert.equal(Number(row.rows[0]!.balance_after_cents), 150);
  assert.equal(await getBalance(db, c.accountId), 150);
  assert.equal(await ledgerSumCents(db, c.accountId), 150);
});

test('ledger rows cannot be updated or deleted', async () => {
  const c = await createCustomer(t, { deposit: '7.00' });
  const before = await db.selectFrom('transactions').selectAll().where('account_id', '=', c.accountId).execute();
  await assert.rejects(db.updateTable('transactions').set({ amount_cents: 1 }).where('account_id', '=', c.accountId).execute(), /ledger rows cannot be changed/);
  await assert.rejects(db.updateTable('transactions').set({ description: 'edited' }).where('account_id', '=', c.accountId).execute(), /ledger rows cannot be changed/);
  await assert.rejects(db.deleteFrom('transactions').where('account_id', '=', c.accountId).execute(), /ledger rows cannot be changed/);
  assert.deepEqual(await db.selectFrom('transactions').selectAll().where('account_id', '=', c.accountId).execute(), before);
  assert.equal(await getBalance(db, c.accountId), 700);
});

test('concurrency: 20 parallel charges of 3.00 on 10.00 → exactly 3 succeed, balance 1.00', async () => {
  const c = await createCustomer(t, { deposit: '10.00' });
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => db.transaction().execute((trx) => charge(trx, c.accountId, 300, `parallel charge ${i}`))),
  );
  const ok = results.filter((r) => r.status === 'fulfilled');
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.equal(ok.length, 3);
  assert.equal(failed.length, 17);
  for (const f of failed) assert.ok(isCode('INSUFFICIENT_BALANCE')(f.reason), String(f.reason));
  assert.equal(await getBalance(db, c.accountId), 100);
  assert.equal(await ledgerSumCents(db, c.accountId), 100);
  assert.equal(await rowCount(c.accountId), 4);
  const afters = (await db.selectFrom('transactions').select('balance_after_cents').where('account_id', '=', c.accountId).orderBy('id').execute())
    .map((r) => r.balance_after_cents);
  assert.deepEqual(afters, [1000, 700, 400, 100], 'each charge saw the balance the previous one left');
});

test('concurrency: mixed deposits, charges and refunds keep sum(ledger) = balance ≥ 0', async () => {
  const c = await createCustomer(t, { deposit: '1.00' });
  const ops = Array.from({ length: 60 }, (_, i) => {
    const amount = 17 + (i % 7) * 13;
    const run = i % 3 === 0 ? deposit : i % 3 === 1 ? charge : refund;
    return db.transaction().execute((trx) => run(trx, c.accountId, amount, `op ${i}`)).then(() => true, (e: unknown) => {
      if (!isCode('INSUFFICIENT_BALANCE')(e)) throw e;
      return false;
    });
  });
  await Promise.all(ops);
  const balance = await getBalance(db, c.accountId);
  assert.ok(balance >= 0);
  assert.equal(await ledgerSumCents(db, c.accountId), balance);
  const min = await db.selectFrom('transactions').where('account_id', '=', c.accountId).select((eb) => eb.fn.min('balance_after_cents').as('m')).executeTakeFirstOrThrow();
  assert.ok(Number(min.m) >= 0, 'no row ever left the balance negative');
});

test('deposits show in GET /v2/billing/transactions with decimal-string amounts', async () => {
  const c = await createCustomer(t);
  await deposit(db, c.accountId, 5, 'five cents');
  await deposit(db, c.accountId, 1234, 'twelve thirty-four');
  await deposit(db, c.accountId, 100_000, 'one thousand');
  await charge(db, c.accountId, 10, 'ten cents');
  const body = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'deposit' } }));
  assert.deepEqual(body.data.map((x: { amount: unknown; description: string }) => [x.description, x.amount]), [
    ['one thousand', { amount: '1000.00', currency: 'USD' }],
    ['twelve thirty-four', { amount: '12.34', currency: 'USD' }],
    ['five cents', { amount: '0.05', currency: 'USD' }],
  ]);
  const bal = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance;
  assert.deepEqual(bal, { amount: '1012.29', currency: 'USD' });
});

test('the balance can only change through a ledger row, even for a direct SQL writer', async () => {
  const c = await createCustomer(t, { deposit: '3.00' });
  await assert.rejects(
    db.updateTable('accounts').set({ balance_cents: 99_900 } as never).where('id', '=', c.accountId).execute(),
    /only through a transactions row/,
  );
  await db.updateTable('accounts').set({ name: 'Renamed' }).where('id', '=', c.accountId).execute();
  const row = await db.selectFrom('accounts').select(['balance_cents', 'name']).where('id', '=', c.accountId).executeTakeFirstOrThrow();
  assert.deepEqual(row, { balance_cents: 300, name: 'Renamed' });
});
