// The Stripe driver (PAYMENTS=stripe): Stripe Checkout through the `stripe` package. A top-up is a
// Checkout Session in `payment` mode for one line of the gross amount in USD cents; our payment id
// travels as its client_reference_id (and metadata), and its creation carries our payment id as
// the idempotency key, so a retried request never opens a second session. Stripe's webhook
// `checkout.session.completed` (with payment_status `paid`) or `checkout.session.async_payment_succeeded`
// says it is paid; `checkout.session.async_payment_failed` that it was declined;
// `checkout.session.expired` that it was abandoned. Signatures are checked by the package
// (`stripe.webhooks.constructEvent`) against STRIPE_WEBHOOK_SECRET, at most 300 s old.
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { ProviderError } from '../errors.ts';
import { type PaymentNotice, type PaymentProvider, type ProviderPaymentState, WebhookRejected } from './types.ts';

/** A signed event older than this (seconds) is refused: Stripe's own default tolerance. */
export const STRIPE_TOLERANCE_S = 300;

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** STRIPE_API_URL: another API origin (stripe-mock, tests); default Stripe's. */
  apiUrl?: string;
  /** Per request (ms). */
  timeoutMs?: number;
}

type Session = Stripe.Checkout.Session;

function idOf(x: string | { id: string } | null | undefined): string | null {
  return x == null ? null : typeof x === 'string' ? x : x.id;
}

/** A Checkout Session as our provider interface sees it. */
export function sessionState(s: Session): ProviderPaymentState {
  if (s.status === 'complete' && s.payment_status === 'paid') {
    return { status: 'paid', amountCents: s.amount_total ?? 0, currency: (s.currency ?? '').toUpperCase(), chargeRef: idOf(s.payment_intent) };
  }
  if (s.status === 'expired') return { status: 'expired' };
  return { status: 'open' };
}

/** Stripe's failures: its API refusing the request is final; the network or Stripe itself erring is retryable. */
function upstream(e: unknown, what: string): ProviderError {
  const err = e as { type?: string; message?: string; statusCode?: number };
  const retryable = err.type === 'StripeConnectionError' || err.type === 'StripeAPIError' || err.type === 'StripeRateLimitError' || (err.statusCode ?? 0) >= 500;
  return new ProviderError('UPSTREAM_ERROR', `Stripe ${what} failed: ${err.message ?? String(e)}`, retryable);
}

// Loaded when the driver is made (PAYMENTS=stripe): the package costs every process that imports
// the app about 0.1 s of CPU at start, and most installations do not use it.
let stripeModule: typeof Stripe | undefined;
const StripeClient = () => (stripeModule ??= createRequire(import.meta.url)('stripe') as typeof Stripe);

export function createStripePayments(opts: StripeOptions): PaymentProvider {
  const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
  const Client = StripeClient();
  const stripe = new Client(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: opts.timeoutMs ?? 20_000,
    telemetry: false,
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
  });
  return {
    name: 'stripe',
    async createCheckout(req) {
      let s: Session;
      try {
        s = await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: req.currency.toLowerCase(), unit_amount: req.amountCents, product_data: { name: req.description } } }],
          client_reference_id: req.paymentId,
          metadata: { payment_id: req.paymentId },
          payment_intent_data: { metadata: { payment_id: req.paymentId } },
          ...(req.customerEmail ? { customer_email: req.customerEmail } : {}),
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
        }, { idempotencyKey: `checkout-${req.paymentId}` });
      } catch (e) {
        throw upstream(e, 'Checkout Session create');
      }
      if (!s.url) throw new ProviderError('UPSTREAM_ERROR', `Stripe answered Checkout Session ${s.id} without a URL`, false);
      return { ref: s.id, url: s.url };
    },
    async retrieve(ref) {
      try {
        return sessionState(await stripe.checkout.sessions.retrieve(ref));
      } catch (e) {
        throw upstream(e, 'Checkout Session retrieve');
      }
    },
    async refund(req) {
      if (!req.chargeRef) throw new ProviderError('UPSTREAM_ERROR', `The payment ${req.ref} has no PaymentIntent to refund`, false);
      try {
        const r = await stripe.refunds.create({ payment_intent: req.chargeRef, amount: req.amountCents }, { idempotencyKey: `refund-${req.idempotencyKey}` });
        return { ref: r.id };
      } catch (e) {
        throw upstream(e, 'refund');
      }
    },
    verifyWebhook(rawBody, signature, now): PaymentNotice {
      if (!signature) throw new WebhookRejected('The Stripe-Signature header is missing');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret, STRIPE_TOLERANCE_S, undefined, now.getTime());
      } catch (e) {
        throw new WebhookRejected(`The Stripe signature does not hold: ${(e as Error).message}`);
      }
      const base = { eventId: event.id, type: event.type };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
        case 'checkout.session.expired': {
          const s = event.data.object;
          return { ...base, payment: { ref: s.id, reference: s.client_reference_id ?? s.metadata?.payment_id ?? null, state: sessionState(s) } };
        }
        case 'checkout.session.async_payment_failed': {
          const s = event.data.object;
          return { ...base, payment: { ref: s.id, reference: s.client_reference_id ?? null, state: { status: 'declined', reason: 'The payment failed' } } };
        }
        default:
          return { ...base, payment: null };
      }
    },
  };
}
