// Exactly once: whatever how often, how late or how concurrently the provider's word about a
// payment arrives (webhooks redelivered or sent in parallel, the customer coming back, a
// reconciliation), the payment credits one deposit and issues one invoice. The word is applied in
// one transaction that first locks the payment's row: the first confirmation credits the deposit,
// marks the payment paid with it and issues the invoice; every other one waits for that commit,
// then finds the payment paid and does nothing. The database backs it up: a payment is unique per
// provider id and per deposit, and `paid` exactly when it names its deposit.
import { createHash } from 'node:crypto';
import { lockPaymentByRef, markPaid, markUnpaid, noteFailure, pruneWebhookReceipts, recordWebhookReceipt } from '../../db/queries/payments.ts';
import type { Invoice, Payment, PaymentProviderName, Transaction } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { afterCommit } from '../events.ts';
import { type PaymentNotice, type ProviderPaymentState, WebhookRejected } from '../../providers/payments/types.ts';
import { deposit } from '../billing/ledger.ts';
import { settleAfterDeposit } from '../billing/service.ts';
import { ApiError } from '../errors.ts';
import { formatCents } from '../money.ts';
import type { Db } from '../types.ts';
import type { PaymentDeps } from './deps.ts';
import { issueTopUpInvoice } from './invoices.ts';

export type Outcome =
  /** This confirmation credited the deposit and issued the invoice. */
  | { kind: 'credited'; payment: Payment; deposit: Transaction; invoice: Invoice }
  /** The payment was credited before: nothing more was done. */
  | { kind: 'already_paid'; payment: Payment }
  /** Declined, expired or still open: nothing was credited. */
  | { kind: 'not_paid'; payment: Payment }
  /** The provider's amount or currency is not the payment's: nothing was credited, the payment notes why. */
  | { kind: 'mismatch'; payment: Payment }
  /** No payment of ours has that provider id. */
  | { kind: 'unknown' };

/** Applies the provider's word about payment `ref` inside `db`'s transaction (or one of its own). */
export function applyProviderState(db: Db, provider: PaymentProviderName, ref: string, state: ProviderPaymentState, now: Date): Promise<Outcome> {
  return inTransaction(db, async (trx) => {
    const payment = await lockPaymentByRef(trx, provider, ref);
    if (!payment) return { kind: 'unknown' };
    if (payment.status === 'paid') return { kind: 'already_paid', payment };
    if (state.status === 'open') return { kind: 'not_paid', payment };
    if (state.status === 'declined' || state.status === 'expired') {
      const failure = state.status === 'declined' ? state.reason : 'The checkout expired before it was paid';
      return { kind: 'not_paid', payment: (await markUnpaid(trx, payment.id, state.status, failure, now)) ?? payment };
    }
    if (state.amountCents !== payment.gross_cents || state.currency.toUpperCase() !== payment.currency) {
      const note = `The provider reports ${state.currency} ${formatCents(state.amountCents)} paid, not ${payment.currency} ${formatCents(payment.gross_cents)}: not credited, check with the provider`;
      await noteFailure(trx, payment.id, note);
      return { kind: 'mismatch', payment: { ...payment, failure: note } };
    }
    // Paid (also after we had marked it declined or expired: the provider's word that money moved wins).
    const dep = await deposit(trx, payment.account_id, payment.net_cents, `Top-up ${payment.id}`);
    const paid = await markPaid(trx, payment.id, { depositId: dep.id, chargeRef: state.chargeRef, now });
    const invoice = await issueTopUpInvoice(trx, paid, dep, now);
    return { kind: 'credited', payment: paid, deposit: dep, invoice };
  });
}

/** After a credit has committed: the billing settlement an operator's deposit runs (suspended services resume). */
export async function settle(deps: Pick<PaymentDeps, 'db' | 'services' | 'billing' | 'now' | 'onError'>, outcome: Outcome): Promise<void> {
  if (outcome.kind !== 'credited') return;
  await settleAfterDeposit(deps.db, deps.services, deps.billing, deps.now(), outcome.payment.account_id, deps.onError);
}

/**
 * Asks the provider how payment `ref` stands and applies it: how the simulated checkout confirms
 * what its page did, and how a payment whose webhook is late is settled on request.
 */
export async function confirmFromProvider(deps: PaymentDeps, provider: PaymentProviderName, ref: string): Promise<Outcome> {
  const p = deps.services.payments;
  if (!p || p.name !== provider) throw new ApiError('STATE_CONFLICT', `Payments through ${provider} are not in use on this server`);
  const state = await p.retrieve(ref);
  const outcome = await applyProviderState(deps.db, provider, ref, state, deps.now());
  await settle(deps, outcome);
  return outcome;
}

/** How long a webhook receipt is kept: past it, the request is refused for its timestamp anyway. */
const RECEIPT_KEEP_S = 24 * 3600;

export type WebhookResult = { eventId: string; type: string; outcome: Outcome | null };

/**
 * A provider's webhook: its signature and age are checked by the provider; the very same signed
 * request taken twice is a replay (refused like a bad signature); a redelivery of an event (a new
 * signature) is applied again, which credits nothing the second time. Errors: VALIDATION-style
 * rejections are REQUEST_MALFORMED (answered 400).
 */
export async function receiveWebhook(deps: PaymentDeps, provider: PaymentProviderName, rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
  const p = deps.services.payments;
  if (!p || p.name !== provider || !p.verifyWebhook) throw new ApiError('ENDPOINT_NOT_FOUND', `Payments through ${provider} are not in use on this server`);
  let notice: PaymentNotice;
  try {
    notice = p.verifyWebhook(rawBody, signature, deps.now());
  } catch (e) {
    if (e instanceof WebhookRejected) throw new ApiError('REQUEST_MALFORMED', e.message);
    throw e;
  }
  const signatureHash = createHash('sha256').update(signature!).digest('hex');
  await pruneWebhookReceipts(deps.db, RECEIPT_KEEP_S);
  const outcome = await inTransaction(deps.db, async (trx) => {
    if (!(await recordWebhookReceipt(trx, { provider, signatureHash, eventId: notice.eventId }))) {
      throw new ApiError('REQUEST_MALFORMED', `This signed request was received before (event ${notice.eventId}); a replay is refused`);
    }
    const applied = notice.payment ? await applyProviderState(trx, provider, notice.payment.ref, notice.payment.state, deps.now()) : null;
    // Logged and counted once this commits (an unknown session as a warning: telemetry/index.ts).
    afterCommit(trx, {
      kind: 'payment_webhook', provider, outcome: applied?.kind ?? 'ignored', eventId: notice.eventId, eventType: notice.type,
      ref: notice.payment?.ref ?? null, reference: notice.payment?.reference ?? null, paymentId: applied && applied.kind !== 'unknown' ? applied.payment.id : null,
    });
    return applied;
  });
  if (outcome) {
    // An unknown payment is not an error (a Stripe account may take payments for other systems
    // too): acknowledged, and reported as a warning by the event above.
    if (outcome.kind === 'mismatch') deps.onError(new Error(outcome.payment.failure ?? 'amount mismatch'), `payment/${outcome.payment.id}`);
    await settle(deps, outcome);
  }
  return { eventId: notice.eventId, type: notice.type, outcome };
}
