// A customer's top-up: the amount to credit, the tax of their country on top, a payment row, then
// the provider's checkout where they pay the gross. What happens after is the provider's word
// (confirm.ts). The panel starts a top-up with startTopUp, sends the customer to `checkoutUrl`,
// and on their return shows getTopUp (refreshTopUp asks the provider when the webhook is late).
import { findAccount } from '../../db/queries/accounts.ts';
import { getInvoiceSettingsRow } from '../../db/queries/invoices.ts';
import { type PaymentFilter, type PaymentRow, findPayment, insertPayment, listPaymentsPage, markUnpaid, setCheckout } from '../../db/queries/payments.ts';
import type { Payment } from '../../db/schema.ts';
import { ProviderError } from '../../providers/errors.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { base62 } from '../ids.ts';
import { CURRENCY, formatCents, parseAmount } from '../money.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type BillingActor, requireBilling } from './access.ts';
import { type Outcome, confirmFromProvider } from './confirm.ts';
import type { PaymentDeps } from './deps.ts';
import { rateFor, sellerProblem } from './settings.ts';
import { taxOf } from './tax.ts';

export type { Payment, PaymentRow };

/** Where the panel shows a top-up's result: the customer comes back here from the checkout. */
export const DEFAULT_RETURN_PATH = '/panel/billing/top-up';

export interface TopUpInput {
  /** What the balance is credited, tax not included ("50.00"). */
  amount: string;
  /** Where the customer returns; under PUBLIC_URL. Default PUBLIC_URL/panel/billing/top-up. */
  returnUrl?: string;
}

function returnUrl(publicUrl: string, given: string | undefined, paymentId: string, result: 'paid' | 'cancelled'): string {
  const base = given ?? `${publicUrl}${DEFAULT_RETURN_PATH}`;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw invalid('return_url', 'must be an absolute URL');
  }
  // Never an open redirect: the checkout sends the customer back to this server only.
  if (url.origin !== new URL(publicUrl).origin) throw invalid('return_url', `must be on ${new URL(publicUrl).origin}`);
  url.searchParams.set('payment', paymentId);
  url.searchParams.set('result', result);
  return url.toString();
}

export interface StartedTopUp {
  payment: PaymentRow;
  /** Where to send the customer to pay. */
  checkoutUrl: string;
}

/**
 * Opens a top-up: checks the amount (TOPUP_MIN..TOPUP_MAX), works out the tax of the account's
 * country, stores the payment (pending) and opens the provider's checkout for the gross amount.
 * A provider that fails marks the payment failed and answers UPSTREAM_ERROR; nothing is credited.
 */
export async function startTopUp(deps: PaymentDeps, actor: BillingActor, input: TopUpInput): Promise<StartedTopUp> {
  requireBilling(actor, 'write');
  const provider = deps.services.payments;
  if (!provider || provider.name === 'off') throw new ApiError('STATE_CONFLICT', 'Top-up is turned off on this server (PAYMENTS=off); the operator records deposits');
  // Every paid top-up is invoiced at once: without the seller's details there is nothing to invoice with.
  const problem = sellerProblem(await getInvoiceSettingsRow(deps.db), provider.name);
  if (problem) throw new ApiError('STATE_CONFLICT', `Top-up is not available yet: ${problem}. The operator has to set them first`);
  const net = parseAmount(input.amount.trim());
  const { minCents, maxCents } = deps.topup;
  if (net === null || net < minCents || net > maxCents) {
    throw invalid('amount', `must be an amount from ${formatCents(minCents)} to ${formatCents(maxCents)} USD, such as "50.00"`);
  }
  const account = await findAccount(deps.db, actor.accountId);
  if (!account) throw notFound('Account');
  if (account.status === 'closed') throw new ApiError('STATE_CONFLICT', 'The account is closed');
  const { rateBp, label } = await rateFor(deps.db, account.country);
  const tax = taxOf(net, rateBp);
  const id = `pay_${base62(16)}`;
  const success = returnUrl(deps.publicUrl, input.returnUrl, id, 'paid');
  const cancel = returnUrl(deps.publicUrl, input.returnUrl, id, 'cancelled');
  await insertPayment(deps.db, {
    id, account_id: account.id, provider: provider.name, net_cents: net, tax_cents: tax, gross_cents: net + tax, tax_rate_bp: rateBp, tax_label: label,
    tax_country: account.country, currency: CURRENCY, sub_user_id: actor.subUserId,
  });
  try {
    const checkout = await provider.createCheckout({
      paymentId: id, amountCents: net + tax, currency: CURRENCY, customerEmail: account.email, successUrl: success, cancelUrl: cancel,
      description: tax > 0 ? `Hostcloud balance top-up ${formatCents(net)} USD + ${label} ${formatCents(tax)} USD` : `Hostcloud balance top-up ${formatCents(net)} USD`,
    });
    const payment = await setCheckout(deps.db, id, checkout.ref, checkout.url);
    return { payment: { ...payment, invoice_id: null }, checkoutUrl: checkout.url };
  } catch (e) {
    if (e instanceof ProviderError) {
      await markUnpaid(deps.db, id, 'failed', e.message, deps.now());
      throw new ApiError('UPSTREAM_ERROR', `The payment provider could not open the checkout: ${e.message}`);
    }
    throw e;
  }
}

/** One of the account's top-ups (another account's is not found). */
export async function getTopUp(db: Db, actor: BillingActor, id: string): Promise<PaymentRow> {
  requireBilling(actor, 'read');
  const p = await findPayment(db, id, actor.accountId);
  if (!p) throw notFound('Payment');
  return p;
}

/**
 * A pending top-up, after asking the provider how it stands (the webhook may be late): a payment
 * the provider says is paid is credited here, once, as the webhook would have.
 */
export async function refreshTopUp(deps: PaymentDeps, actor: BillingActor, id: string): Promise<PaymentRow> {
  return refreshPayment(deps, await getTopUp(deps.db, actor, id));
}

/** The operator's refresh: any account's payment. */
export async function refreshAnyPayment(deps: PaymentDeps, id: string): Promise<PaymentRow> {
  return refreshPayment(deps, await getPayment(deps.db, id));
}

async function refreshPayment(deps: PaymentDeps, p: PaymentRow): Promise<PaymentRow> {
  if (p.status !== 'pending' || !p.provider_ref) return p;
  let outcome: Outcome;
  try {
    outcome = await confirmFromProvider(deps, p.provider, p.provider_ref);
  } catch (e) {
    if (e instanceof ProviderError) throw new ApiError('UPSTREAM_ERROR', `The payment provider could not be asked: ${e.message}`);
    throw e;
  }
  return outcome.kind === 'unknown' ? p : (await findPayment(deps.db, p.id)) ?? p;
}

export async function listTopUps(db: Db, actor: BillingActor, page: PageRequest): Promise<Paged<PaymentRow>> {
  requireBilling(actor, 'read');
  return listPayments(db, { accountId: actor.accountId }, page);
}

/** The operator's list: every account's, or one's. */
export async function listPayments(db: Db, filter: PaymentFilter, page: PageRequest): Promise<Paged<PaymentRow>> {
  const { rows, total } = await listPaymentsPage(db, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getPayment(db: Db, id: string): Promise<PaymentRow> {
  const p = await findPayment(db, id);
  if (!p) throw notFound('Payment');
  return p;
}
