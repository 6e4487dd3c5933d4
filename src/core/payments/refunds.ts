// Refunds of paid top-ups, made so that none is lost or paid twice whatever fails when. The
// provider's refund cannot share a transaction with our database, so a refund is three steps:
//  1. one transaction records the refund (`pending`, in payment_refunds) and takes its amount off
//     the balance — the money is reserved, so the customer cannot spend what is being paid back,
//     and the balance can never be short once the provider has paid it;
//  2. the provider is asked to pay the gross back, with an idempotency key derived from the
//     refund's id: asked again for the same refund, it answers the first refund and pays nothing more;
//  3. one transaction issues the credit note and completes the refund.
// If anything fails after 1 — the provider erring or timing out, our commit failing, the process
// dying — the refund stays pending and the next try (the operator's request sent again, or the
// worker's payment sweep) repeats 2 with the same key and does 3. A provider that refuses the
// refund outright fails it: the amount goes back on the balance and no credit note is issued.
//
// The operator's request is idempotent: with an Idempotency-Key, the same key answers the same
// refund (finishing it if it is pending) and a different request under it is refused; without
// one, a request that asks what the deposit's pending refund asked finishes and answers it.
import { isUniqueViolation } from '../../db/refusals.ts';
import { creditedTotals, findInvoice, findInvoiceOfDeposit } from '../../db/queries/invoices.ts';
import {
  completeRefund, failRefund, findPendingRefund, findRefundByKey, insertPaymentRefund, lockRefund, noteRefundAttempt,
} from '../../db/queries/payment-refunds.ts';
import { findPayment, lockPayment } from '../../db/queries/payments.ts';
import { findTransaction } from '../../db/queries/transactions.ts';
import type { Invoice, PaymentRefund } from '../../db/schema.ts';
import { inTransaction, withoutCompanion } from '../../db/transaction.ts';
import { ProviderError, type PaymentProvider } from '../../providers/payments/types.ts';
import { charge, refund as creditBack } from '../billing/ledger.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { base62 } from '../ids.ts';
import { type Cents, formatCents, parseAmount } from '../money.ts';
import type { Db } from '../types.ts';
import { issueCreditNote } from './invoices.ts';
import { taxOf } from './tax.ts';

export type { PaymentRefund };

export interface RefundDeps {
  db: Db;
  /** The provider of PAYMENTS now; a payment made through another one cannot be refunded here. */
  provider: PaymentProvider | undefined;
  now: () => Date;
}

export interface RefundInput {
  /** The part of the deposit to refund, as the balance was credited ("25.00"); default: all that is left. */
  amount?: string;
  reason?: string;
  /** The operator's Idempotency-Key (a UUID, lower case). */
  requestKey?: string;
}

export interface RefundResult {
  note: Invoice;
  /** The refund was completed before this request: its answer is given again. */
  replayed: boolean;
}

/** A refund after its provider step: completed with its credit note, or failed (the provider refused). */
type Settled = { refund: PaymentRefund; note: Invoice | null };

/**
 * Refunds (part of) a paid top-up's deposit: takes the amount off the balance (INSUFFICIENT_BALANCE
 * when the balance no longer holds it), has the provider pay the gross back, and issues a credit
 * note referring to the top-up's invoice for that amount with its share of the tax. Refunds of one
 * deposit never add up to more than it; one is in flight at a time.
 */
export async function refundDeposit(deps: RefundDeps, depositId: number, input: RefundInput): Promise<RefundResult> {
  const requested = input.amount === undefined ? null : requestedCents(input.amount);
  const reason = input.reason ?? null;
  const ask = { depositId, requested, reason };
  if (input.requestKey !== undefined) {
    const prior = await findRefundByKey(deps.db, input.requestKey);
    if (prior) return answerPrior(deps, prior, ask);
  }
  const invoice = await findInvoiceOfDeposit(deps.db, depositId);
  if (!invoice) {
    throw (await isDeposit(deps.db, depositId))
      ? new ApiError('STATE_CONFLICT', 'Only the deposit of a paid top-up can be refunded with a credit note; this deposit has no invoice')
      : notFound('Deposit');
  }
  if (!invoice.payment_id) throw new ApiError('STATE_CONFLICT', 'This deposit did not come from a payment');

  // A refund of this deposit that an earlier request left pending is finished first: it was asked
  // for, and the provider may have paid it already.
  const pending = await findPendingRefund(deps.db, invoice.payment_id);
  if (pending) {
    const settled = await finishRefund(deps, pending);
    if (pending.request_key === null && input.requestKey === undefined && sameRequest(pending, ask)) return answer(settled, false);
    throw new ApiError('STATE_CONFLICT', `${describe(settled)} Nothing else was refunded: send your request again if you still want it.`);
  }

  const begun = await beginRefund(deps, invoice, ask, input.requestKey);
  if (begun.duplicate) return answerPrior(deps, begun.refund, ask);
  return answer(await finishRefund(deps, begun.refund), false);
}

function requestedCents(amount: string): Cents {
  const cents = parseAmount(amount);
  if (cents === null || cents === 0) throw invalid('amount', 'must be a positive amount such as "25.00"');
  return cents;
}

type Ask = { depositId: number; requested: Cents | null; reason: string | null };

function sameRequest(r: PaymentRefund, ask: Ask): boolean {
  return r.deposit_id === ask.depositId && r.requested_cents === ask.requested && r.reason === ask.reason;
}

/** The refund an Idempotency-Key names: its answer, once it is settled. */
async function answerPrior(deps: RefundDeps, prior: PaymentRefund, ask: Ask): Promise<RefundResult> {
  if (!sameRequest(prior, ask)) {
    throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', `This Idempotency-Key was used for another refund request (${prior.id}, deposit ${prior.deposit_id}); use a new key for a new request`);
  }
  if (prior.status === 'pending') return answer(await finishRefund(deps, prior), false);
  return answer({ refund: prior, note: prior.credit_note_id ? (await findInvoice(deps.db, prior.credit_note_id)) ?? null : null }, true);
}

function answer(s: Settled, replayed: boolean): RefundResult {
  if (s.note) return { note: s.note, replayed };
  throw refused(s.refund);
}

function refused(r: PaymentRefund): ApiError {
  return new ApiError('UPSTREAM_ERROR', `The payment provider refused the refund ${r.id}: ${r.failure ?? 'no reason given'}. Nothing was refunded; the amount is back on the balance`);
}

function describe(s: Settled): string {
  const r = s.refund;
  const what = `An earlier refund of this deposit (${r.id}, ${formatCents(r.net_cents)} USD) was pending;`;
  return s.note
    ? `${what} it is now completed with credit note ${s.note.number}.`
    : `${what} the payment provider refused it (${r.failure ?? 'no reason given'}) and the amount is back on the balance.`;
}

async function isDeposit(db: Db, id: number): Promise<boolean> {
  return (await findTransaction(db, id))?.type === 'deposit';
}

function checkProvider(deps: RefundDeps, paymentProvider: string): PaymentProvider {
  const p = deps.provider;
  if (!p || p.name !== paymentProvider) {
    throw new ApiError('STATE_CONFLICT', `The payment was made with ${paymentProvider}, which this server does not use now (PAYMENTS=${p?.name ?? 'off'}); refund it there`);
  }
  return p;
}

/**
 * Step 1: under the payment's row lock (refunds of one payment queue there), checks what is left of
 * the deposit, takes the refund off the balance and records it pending. A request with a key that
 * a concurrent request has just used finds that refund (`duplicate`).
 */
function beginRefund(deps: RefundDeps, invoice: Invoice, ask: Ask, requestKey: string | undefined): Promise<{ refund: PaymentRefund; duplicate: boolean }> {
  return inTransaction(deps.db, async (trx) => {
    const payment = await lockPayment(trx, invoice.payment_id!);
    if (!payment) throw new ApiError('STATE_CONFLICT', 'This deposit did not come from a payment');
    if (requestKey !== undefined) {
      const dup = await findRefundByKey(trx, requestKey);
      if (dup) return { refund: dup, duplicate: true };
    }
    const inFlight = await findPendingRefund(trx, payment.id);
    if (inFlight) throw new ApiError('STATE_CONFLICT', `A refund of this deposit (${inFlight.id}) is in progress; send the request again in a moment`);
    checkProvider(deps, payment.provider);
    // No refund is pending (checked under the lock): the credit notes are everything refunded so far.
    const done = await creditedTotals(trx, invoice.id);
    const leftNet = invoice.net_cents - done.net;
    if (leftNet <= 0) throw new ApiError('STATE_CONFLICT', `The deposit's invoice ${invoice.number} is refunded in full already`);
    if (ask.requested !== null && ask.requested > leftNet) throw invalid('amount', `must be at most ${formatCents(leftNet)}, what is left of the deposit`);
    const net = ask.requested ?? leftNet;
    // The last refund takes exactly the tax that is left, so the credit notes add up to the invoice.
    const tax = net === leftNet ? invoice.tax_cents - done.tax : Math.min(taxOf(net, invoice.tax_rate_bp), invoice.tax_cents - done.tax);
    const id = `rfd_${base62(16)}`;
    const taken = await charge(trx, invoice.account_id, net, `Refund ${id} of top-up ${payment.id} (invoice ${invoice.number})`);
    try {
      const refund = await insertPaymentRefund(trx, {
        id, payment_id: payment.id, account_id: invoice.account_id, deposit_id: invoice.deposit_id, invoice_id: invoice.id,
        net_cents: net, tax_cents: tax, gross_cents: net + tax, requested_cents: ask.requested, reason: ask.reason, request_key: requestKey ?? null, withdraw_id: taken.id,
      });
      return { refund, duplicate: false };
    } catch (e) {
      // The key taken at the same moment by a request about another deposit.
      if (isUniqueViolation(e, 'refund_key_taken')) {
        throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'This Idempotency-Key is being used by another refund request; use a new key for a new request');
      }
      throw e;
    }
  });
}

/**
 * Steps 2 and 3 for a pending refund (a settled one is answered as it is): the provider pays the
 * gross back under the refund's own idempotency key, then the credit note is issued. A provider
 * that errs leaves it pending (UPSTREAM_ERROR: the next try finishes it); one that refuses fails it.
 */
export async function finishRefund(deps: RefundDeps, refund: PaymentRefund): Promise<Settled> {
  const { db } = deps;
  const payment = await findPayment(db, refund.payment_id);
  if (!payment) throw notFound('Payment');
  const provider = checkProvider(deps, payment.provider);
  let providerRef: string;
  try {
    ({ ref: providerRef } = await provider.refund({
      ref: payment.provider_ref!, chargeRef: payment.provider_charge_ref, amountCents: refund.gross_cents, idempotencyKey: refund.id,
    }));
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    if (e.retryable) {
      // Whether the provider paid is unknown: the refund stays pending, the money reserved. The note
      // commits although the request fails, so it is apart from an admin write's audit row.
      await withoutCompanion(() => noteRefundAttempt(db, refund.id, e.message, deps.now())).catch(() => undefined);
      throw new ApiError('UPSTREAM_ERROR', `The payment provider did not complete the refund (${e.message}). It is pending as ${refund.id} with the amount `
        + 'reserved: send the request again, or the worker finishes it within minutes; it is paid once either way');
    }
    return failPendingRefund(deps, refund, e.message);
  }
  return inTransaction(db, async (trx) => {
    const row = await lockRefund(trx, refund.id);
    if (!row) throw notFound('Refund');
    if (row.status !== 'pending') return settledAs(trx, row);
    const invoice = await findInvoice(trx, row.invoice_id);
    if (!invoice) throw notFound('Invoice');
    const note = await issueCreditNote(trx, invoice, { paymentId: row.payment_id, withdrawId: row.withdraw_id, net: row.net_cents, tax: row.tax_cents, reason: row.reason }, deps.now());
    return { refund: await completeRefund(trx, row.id, { creditNoteId: note.id, providerRef, now: deps.now() }), note };
  });
}

/** The provider refused: the amount goes back on the balance, the refund is failed (unless another try settled it first). */
function failPendingRefund(deps: RefundDeps, refund: PaymentRefund, failure: string): Promise<Settled> {
  return inTransaction(deps.db, async (trx) => {
    const row = await lockRefund(trx, refund.id);
    if (!row) throw notFound('Refund');
    if (row.status !== 'pending') return settledAs(trx, row);
    const back = await creditBack(trx, row.account_id, row.net_cents, `Refund ${row.id} of top-up ${row.payment_id} not made (the payment provider refused it): amount returned`);
    return { refund: await failRefund(trx, row.id, { reversalId: back.id, failure, now: deps.now() }), note: null };
  });
}

async function settledAs(db: Db, row: PaymentRefund): Promise<Settled> {
  return { refund: row, note: row.credit_note_id ? (await findInvoice(db, row.credit_note_id)) ?? null : null };
}
