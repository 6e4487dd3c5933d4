// The simulated payment provider (PAYMENTS=simulated, the default): a hosted checkout of our own.
// createCheckout opens a session in sim_payments and answers the URL of its page
// (/payments/simulated/checkout/{id}, src/http/payments/simulated-checkout.ts), where the customer
// pays or declines at a click. Like a real provider it keeps its own state, expires sessions after
// a day, refunds at most what was paid (once per idempotency key), takes SIM_DELAY_MS per call and
// obeys its fault switch (`PUT /admin/v1/providers/payments/fault`).
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import { findSimPayment, insertSimPayment, refundSimPayment } from '../../db/queries/sim-payments.ts';
import type { SimPayment } from '../../db/schema.ts';
import { withoutCompanion } from '../../db/transaction.ts';
import { ProviderError } from '../errors.ts';
import { obeyFault, sleep } from '../simulated/fault.ts';
import type { PaymentProvider, ProviderPaymentState } from './types.ts';

/** A session not paid within a day expires, as a Stripe Checkout Session does by default. */
export const SIM_CHECKOUT_TTL_MS = 24 * 3_600_000;

export interface SimulatedPaymentsOptions {
  db: Db;
  /** PUBLIC_URL: the checkout page's origin. */
  publicUrl: string;
  /** SIM_DELAY_MS: each call takes a tenth of it (a checkout API answers fast). */
  delayMs: number;
  now?: () => Date;
}

/** A session's state as retrieve reports it (open past its expiry is expired). */
export function simState(s: SimPayment, now: Date): ProviderPaymentState {
  if (s.status === 'paid') return { status: 'paid', amountCents: s.amount_cents, currency: s.currency, chargeRef: s.id };
  if (s.status === 'declined') return { status: 'declined', reason: 'The card was declined (simulated)' };
  if (s.status === 'expired' || s.expires_at.getTime() <= now.getTime()) return { status: 'expired' };
  return { status: 'open' };
}

export function checkoutPageUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/payments/simulated/checkout/${encodeURIComponent(id)}`;
}

export function createSimulatedPayments(opts: SimulatedPaymentsOptions): PaymentProvider {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const step = () => sleep(Math.floor(opts.delayMs / 10));
  return {
    name: 'simulated',
    async createCheckout(req) {
      await obeyFault(db, 'payments', 'createCheckout', opts.delayMs);
      await step();
      // The simulated provider's books stand for another company's: never part of our transactions.
      const s = await withoutCompanion(() => insertSimPayment(db, {
        id: `cs_sim_${randomBytes(18).toString('base64url')}`, amount_cents: req.amountCents, currency: req.currency, description: req.description, reference: req.paymentId,
        success_url: req.successUrl, cancel_url: req.cancelUrl, expires_at: new Date(now().getTime() + SIM_CHECKOUT_TTL_MS),
      }));
      return { ref: s.id, url: checkoutPageUrl(opts.publicUrl, s.id) };
    },
    async retrieve(ref) {
      await obeyFault(db, 'payments', 'retrieve', opts.delayMs);
      const s = await findSimPayment(db, ref);
      if (!s) throw new ProviderError('UPSTREAM_ERROR', `No such checkout session: ${ref}`, false);
      return simState(s, now());
    },
    async refund(req) {
      await obeyFault(db, 'payments', 'refund', opts.delayMs);
      await step();
      if (!(await withoutCompanion(() => refundSimPayment(db, req.ref, req.amountCents, req.idempotencyKey)))) {
        throw new ProviderError('UPSTREAM_ERROR', `The payment ${req.ref} cannot be refunded ${req.amountCents} cents (not paid, or more than what is left)`, false);
      }
      return { ref: `re_sim_${req.idempotencyKey}` };
    },
  };
}
