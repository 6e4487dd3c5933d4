// The payment provider: where a customer pays for a top-up. Each method is one call of a hosted
// checkout API (Stripe Checkout: create a Checkout Session, retrieve it, refund its payment), so a
// real driver maps one to one. Amounts are integer cents of `currency` (USD).
//
// The provider is the truth about whether money moved: the core credits a payment only on the
// provider's word — a verified webhook, or `retrieve` — and credits it once however often that word
// arrives. Calls are made outside our database transactions. A refund is recorded before `refund`
// is called and completed after (src/core/payments/refunds.ts); its idempotency key is the refund
// record's id, so a refund asked for again after a failure is paid once.
import { ProviderError } from '../errors.ts';

export { ProviderError };

/** Every call, by name (the fault switch of the simulated provider names them). */
export const PAYMENT_CALLS = ['createCheckout', 'retrieve', 'refund'] as const;

export interface CheckoutRequest {
  /** Our payment id; the provider keeps it as the session's reference. */
  paymentId: string;
  amountCents: number;
  currency: string;
  /** One line, shown to the customer on the checkout page. */
  description: string;
  customerEmail: string | null;
  /** Where the customer returns after paying, and after giving up or being declined. */
  successUrl: string;
  cancelUrl: string;
}

export interface Checkout {
  /** The provider's id of the payment (a Checkout Session id). */
  ref: string;
  /** Where the customer pays. */
  url: string;
}

/** A payment as the provider sees it. */
export type ProviderPaymentState =
  | { status: 'open' }
  | { status: 'paid'; amountCents: number; currency: string; chargeRef: string | null }
  | { status: 'declined'; reason: string }
  | { status: 'expired' };

/** What a verified webhook says: a state of one payment, or nothing we act on. */
export interface PaymentNotice {
  /** The provider's event id. */
  eventId: string;
  /** The event's type as the provider names it. */
  type: string;
  /** The payment it is about and its state; null for an event we do not act on. */
  payment: { ref: string; reference: string | null; state: ProviderPaymentState } | null;
}

/** A webhook whose signature, timestamp or body does not hold. */
export class WebhookRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRejected';
  }
}

export interface RefundRequest {
  ref: string;
  chargeRef: string | null;
  amountCents: number;
  idempotencyKey: string;
}

export interface PaymentProvider {
  /** `off`: top-up is turned off (PAYMENTS=off); every call refuses. */
  readonly name: 'simulated' | 'stripe' | 'off';
  createCheckout(req: CheckoutRequest): Promise<Checkout>;
  retrieve(ref: string): Promise<ProviderPaymentState>;
  refund(req: RefundRequest): Promise<{ ref: string }>;
  /**
   * Checks a webhook's signature (and its age) and reads it. Throws WebhookRejected when it does not
   * hold. Absent on providers that send none.
   */
  verifyWebhook?(rawBody: Buffer, signatureHeader: string | undefined, now: Date): PaymentNotice;
}
