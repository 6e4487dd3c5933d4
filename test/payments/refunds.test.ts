// Refunds that survive a failure at any point, against the stand-in for Stripe's API: the refund is
// recorded (pending) before the provider is asked, the provider is asked with an idempotency key
// derived from that record, and the credit note is issued after. So a commit that fails after
// Stripe accepted the refund leaves a pending refund, and the retry — the same request again, with
// or without its Idempotency-Key — finishes it: one refund at Stripe, one credit note. A provider
// that errs leaves the refund pending (the money stays reserved); one that refuses gives it back.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type TestApp, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertLedger } from '../helpers/billing.ts';
import { customerCall, fakeStripe, instance, setSeller, startTopUp, stripeConfig } from '../helpers/payments.ts';
import type { App } from '../../src/http/app.ts';

let t: TestApp;
let app: App;
let stripe: Awaited<ReturnType<typeof fakeStripe>>;
before(async () => {
  t = await startApp();
  stripe = await fakeStripe();
  app = await instance(t, stripeConfig(stripe.url));
  await setSeller(t);
});

const year = new Date().getUTCFullYear();

/** A Stripe top-up of `amount`, paid (the refresh asks the stand-in): the account and its deposit id. */
async function paidTopUp(amount: string) {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, amount);
  stripe.complete(started.provider_ref);
  const paid = json(await customerCall(app, c.accountId, 'POST', `/top-ups/${started.id}/refresh`)).data;
  assert.equal(paid.status, 'paid');
  return { accountId: c.accountId, paymentId: started.id as string, depositId: paid.deposit_id as number };
}

function refund(depositId: number, body: Record<string, unknown>, key?: string) {
  return app.inject({
    method: 'POST', url: `/admin/v1/deposits/${depositId}/refunds`, remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${t.adminToken}`, ...(key ? { 'idempotency-key': key } : {}) }, payload: body,
  });
}

const creditNotes = (depositId: number) =>
  t.database.db.selectFrom('invoices').selectAll().where('deposit_id', '=', depositId).where('kind', '=', 'credit_note').execute();

/**
 * The fault: the transaction that issues a credit note fails at COMMIT, as when the database goes
 * away right then (a deferred trigger raises admin_shutdown, which the app reads as "unavailable").
 */
async function failCreditNoteCommits(on: boolean): Promise<void> {
  if (on) {
    await sql`
      CREATE OR REPLACE FUNCTION test_fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated: the database went away at commit' USING ERRCODE = '57P01'; END $$`.execute(t.database.db);
    await sql`
      CREATE CONSTRAINT TRIGGER test_fail_credit_note_commit AFTER INSERT ON invoices DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW WHEN (NEW.kind = 'credit_note') EXECUTE FUNCTION test_fail_commit()`.execute(t.database.db);
  } else {
    await sql`DROP TRIGGER IF EXISTS test_fail_credit_note_commit ON invoices`.execute(t.database.db);
  }
}

test('the commit fails after Stripe refunded: the retry with the same Idempotency-Key finishes it — one refund at Stripe, one credit note', async () => {
  const { accountId, depositId } = await paidTopUp('40.00');
  const key = '0b6f3c2e-6a1d-4c3b-9a55-2f1e0c9d8b71';
  const before = stripe.refunds.length;
  await failCreditNoteCommits(true);
  let first;
  try {
    first = await refund(depositId, { amount: '15.00', reason: 'Customer asked' }, key);
  } finally {
    await failCreditNoteCommits(false);
  }
  assert.equal(first.statusCode, 503, first.body);
  assert.equal(json(first).error.code, 'SERVICE_UNAVAILABLE');
  assert.equal(stripe.refunds.length, before + 1, 'Stripe refunded before our commit failed');
  assert.equal((await creditNotes(depositId)).length, 0);

  const retry = await refund(depositId, { amount: '15.00', reason: 'Customer asked' }, key);
  assert.equal(retry.statusCode, 201, retry.body);
  const note = json(retry).data;
  assert.equal(note.kind, 'credit_note');
  assert.deepEqual([note.net.amount, note.gross.amount], ['15.00', '15.00']);
  assert.equal(stripe.refunds.length, before + 1, 'one refund at Stripe: the retry carried the same idempotency key');
  const keys = new Set(stripe.refundRequests.slice(-2).map((r) => r.key));
  assert.equal(keys.size, 1, `both attempts used one key: ${[...keys].join(', ')}`);
  assert.deepEqual((await creditNotes(depositId)).map((n) => n.id), [note.id]);
  assert.equal(await assertLedger(t, accountId), 2500, 'the refund taken off the balance once');

  // The answer lost a third time: the same key answers the same credit note, and nothing more is done.
  const replay = await refund(depositId, { amount: '15.00', reason: 'Customer asked' }, key);
  assert.equal(replay.statusCode, 201, replay.body);
  assert.equal(json(replay).data.id, note.id);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(stripe.refunds.length, before + 1);
  assert.equal(await assertLedger(t, accountId), 2500);
  // The key with another request: refused, nothing done.
  const conflict = await refund(depositId, { amount: '16.00' }, key);
  assert.equal(conflict.statusCode, 409, conflict.body);
  assert.equal(json(conflict).error.code, 'IDEMPOTENCY_KEY_CONFLICT');
  assert.equal((await creditNotes(depositId)).length, 1);
});

test('without an Idempotency-Key, the same request sent again finishes the pending refund rather than making a second', async () => {
  const { accountId, depositId } = await paidTopUp('30.00');
  const before = stripe.refunds.length;
  await failCreditNoteCommits(true);
  let first;
  try {
    first = await refund(depositId, { amount: '10.00' });
  } finally {
    await failCreditNoteCommits(false);
  }
  assert.equal(first.statusCode, 503, first.body);
  const retry = await refund(depositId, { amount: '10.00' });
  assert.equal(retry.statusCode, 201, retry.body);
  assert.equal(stripe.refunds.length, before + 1);
  assert.equal((await creditNotes(depositId)).length, 1);
  assert.equal(await assertLedger(t, accountId), 2000);

  // Another request while one is pending: the pending one is finished and said so; nothing else is refunded.
  await failCreditNoteCommits(true);
  try {
    assert.equal((await refund(depositId, { amount: '5.00' })).statusCode, 503);
  } finally {
    await failCreditNoteCommits(false);
  }
  const other = await refund(depositId, { amount: '7.00' });
  assert.equal(other.statusCode, 409, other.body);
  assert.match(json(other).error.message, /pending.*now completed.*credit note .*-CN-.*nothing else was refunded/i);
  assert.equal(stripe.refunds.length, before + 2);
  assert.equal((await creditNotes(depositId)).length, 2);
  assert.equal(await assertLedger(t, accountId), 1500, '30 − 10 − 5');
});

test('Stripe erring leaves the refund pending with the money reserved (no credit note, no number); the retry finishes it', async () => {
  const { accountId, depositId } = await paidTopUp('20.00');
  const counter = () => t.database.db.selectFrom('invoice_counters').select('last_number').where('series', '=', 'credit_note').where('year', '=', year).executeTakeFirst();
  const numberBefore = (await counter())?.last_number ?? 0;
  stripe.control.refundFailure = 'error';
  let failed;
  try {
    failed = await refund(depositId, {});
  } finally {
    stripe.control.refundFailure = null;
  }
  assert.equal(failed.statusCode, 502, failed.body);
  assert.equal(json(failed).error.code, 'UPSTREAM_ERROR');
  assert.match(json(failed).error.message, /pending/);
  const pending = await t.database.db.selectFrom('payment_refunds').selectAll().where('deposit_id', '=', depositId).execute();
  assert.deepEqual(pending.map((r) => r.status), ['pending']);
  assert.equal(await assertLedger(t, accountId), 0, 'the amount is reserved: the customer cannot spend what is being refunded');
  assert.equal((await creditNotes(depositId)).length, 0);
  assert.equal((await counter())?.last_number ?? 0, numberBefore, 'no credit note number used');

  const ok = await refund(depositId, {});
  assert.equal(ok.statusCode, 201, ok.body);
  assert.equal(json(ok).data.number, `INV-CN-${year}-${String(numberBefore + 1).padStart(6, '0')}`);
  assert.equal(stripe.refunds.filter((r) => r.key === `refund-${pending[0]!.id}`).length, 1);
  assert.equal(await assertLedger(t, accountId), 0);
});

test('Stripe refusing the refund: 502, nothing refunded, the amount back on the balance, no credit note; a later refund works', async () => {
  const { accountId, depositId } = await paidTopUp('12.00');
  stripe.control.refundFailure = 'refused';
  let refused;
  try {
    refused = await refund(depositId, { amount: '2.00' });
  } finally {
    stripe.control.refundFailure = null;
  }
  assert.equal(refused.statusCode, 502, refused.body);
  assert.match(json(refused).error.message, /refused/);
  assert.equal(await assertLedger(t, accountId), 1200, 'given back');
  const rows = await t.database.db.selectFrom('payment_refunds').selectAll().where('deposit_id', '=', depositId).execute();
  assert.deepEqual(rows.map((r) => r.status), ['failed']);
  assert.equal((await creditNotes(depositId)).length, 0);
  const ok = await refund(depositId, { amount: '2.00' });
  assert.equal(ok.statusCode, 201, ok.body);
  assert.equal(await assertLedger(t, accountId), 1000);
  assert.equal((await refund(depositId, {}, 'not-a-uuid')).statusCode, 422);
});
