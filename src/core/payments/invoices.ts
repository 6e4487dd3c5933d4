// Invoices and credit notes. A paid top-up issues its invoice in the transaction that credits the
// deposit; a refund of that deposit issues a credit note referring to the invoice, in the
// transaction that takes the refund off the balance. Each is numbered gaplessly per series and
// year (`<PREFIX>-2026-000001`, credit notes `<PREFIX>-CN-2026-000001`), prints the operator's and
// the customer's details as they are at issue, and never changes afterwards (the database refuses).
import { findAccount } from '../../db/queries/accounts.ts';
import {
  type InvoiceFilter, creditedTotals, findBillingDetails, findInvoice, findInvoiceOfDeposit, getInvoiceSettingsRow, insertInvoice, listInvoicesPage,
  nextInvoiceNumber,
} from '../../db/queries/invoices.ts';
import { lockPayment } from '../../db/queries/payments.ts';
import { findTransaction } from '../../db/queries/transactions.ts';
import type { Invoice, InvoiceKind, InvoiceParty, Payment, Transaction } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ProviderError, type PaymentProvider } from '../../providers/payments/types.ts';
import { charge } from '../billing/ledger.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { base62 } from '../ids.ts';
import { type Cents, formatCents, parseAmount } from '../money.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type BillingActor, requireBilling } from './access.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { taxOf } from './tax.ts';

export type { Invoice };

export function invoiceNumber(prefix: string, kind: InvoiceKind, year: number, seq: number): string {
  return `${prefix}-${kind === 'credit_note' ? 'CN-' : ''}${year}-${String(seq).padStart(6, '0')}`;
}

/** The operator's details and the customer's, as they stand now (inside the issuing transaction). */
async function parties(db: Db, accountId: string): Promise<{ prefix: string; seller: InvoiceParty & { footer: string }; buyer: InvoiceParty }> {
  const [s, account, details] = await Promise.all([getInvoiceSettingsRow(db), findAccount(db, accountId), findBillingDetails(db, accountId)]);
  if (!account) throw notFound('Account');
  return {
    prefix: s.invoice_prefix,
    seller: { name: s.company_name, address: s.address, tax_id: s.tax_id, footer: s.footer },
    buyer: {
      name: account.name, company: account.company, email: account.email, country: account.country,
      address: details?.address ?? '', tax_id: details?.tax_id ?? '',
    },
  };
}

async function issue(db: Db, kind: InvoiceKind, now: Date, row: {
  accountId: string; depositId: number; paymentId: string | null; refundId: number | null; creditedInvoiceId: string | null;
  currency: string; net: Cents; tax: Cents; rateBp: number; taxLabel: string; description: string; reason: string | null;
}): Promise<Invoice> {
  const { prefix, seller, buyer } = await parties(db, row.accountId);
  const year = now.getUTCFullYear();
  // Last, just before the insert: the counter's row lock is held from here to the commit.
  const seq = await nextInvoiceNumber(db, kind, year);
  return insertInvoice(db, {
    id: `inv_${base62(16)}`, kind, number: invoiceNumber(prefix, kind, year, seq), year, seq,
    account_id: row.accountId, deposit_id: row.depositId, payment_id: row.paymentId, refund_id: row.refundId, credited_invoice_id: row.creditedInvoiceId,
    issued_at: now, currency: row.currency, net_cents: row.net, tax_cents: row.tax, gross_cents: row.net + row.tax,
    tax_rate_bp: row.rateBp, tax_label: row.taxLabel, description: row.description, reason: row.reason, seller, buyer,
  });
}

/** The invoice of a paid top-up; call it in the transaction that credits `deposit`. */
export function issueTopUpInvoice(db: Db, payment: Payment, deposit: Transaction, now: Date): Promise<Invoice> {
  return issue(db, 'invoice', now, {
    accountId: payment.account_id, depositId: deposit.id, paymentId: payment.id, refundId: null, creditedInvoiceId: null,
    currency: payment.currency, net: payment.net_cents, tax: payment.tax_cents, rateBp: payment.tax_rate_bp, taxLabel: payment.tax_label,
    description: `Account balance top-up (${payment.id})`, reason: null,
  });
}

export interface RefundInput {
  /** The part of the deposit to refund, as the balance was credited ("25.00"); default: all that is left. */
  amount?: string;
  reason?: string;
}

/**
 * Refunds (part of) a paid top-up's deposit: takes the amount off the balance (INSUFFICIENT_BALANCE
 * when the balance no longer holds it), issues a credit note referring to the top-up's invoice for
 * that amount with its share of the tax, and has the provider pay the gross back — all in one
 * transaction, so a provider that refuses leaves no credit note and no ledger row (and no number
 * used). Refunds of one deposit queue on its payment's row and never add up to more than it.
 */
export function refundDeposit(db: Db, provider: PaymentProvider | undefined, depositId: number, input: RefundInput, now: Date): Promise<Invoice> {
  return inTransaction(db, async (trx) => {
    const invoice = await findInvoiceOfDeposit(trx, depositId);
    if (!invoice) {
      throw (await isDeposit(trx, depositId))
        ? new ApiError('STATE_CONFLICT', 'Only the deposit of a paid top-up can be refunded with a credit note; this deposit has no invoice')
        : notFound('Deposit');
    }
    const payment = invoice.payment_id ? await lockPayment(trx, invoice.payment_id) : undefined;
    if (!payment) throw new ApiError('STATE_CONFLICT', 'This deposit did not come from a payment');
    if (!provider || provider.name !== payment.provider) {
      throw new ApiError('STATE_CONFLICT', `The payment was made with ${payment.provider}, which this server does not use now (PAYMENTS=${provider?.name ?? 'off'}); refund it there`);
    }
    const done = await creditedTotals(trx, invoice.id);
    const leftNet = invoice.net_cents - done.net;
    if (leftNet <= 0) throw new ApiError('STATE_CONFLICT', `The deposit's invoice ${invoice.number} is refunded in full already`);
    let net = leftNet;
    if (input.amount !== undefined) {
      const cents = parseAmount(input.amount);
      if (cents === null || cents === 0) throw invalid('amount', 'must be a positive amount such as "25.00"');
      if (cents > leftNet) throw invalid('amount', `must be at most ${formatCents(leftNet)}, what is left of the deposit`);
      net = cents;
    }
    // The last refund takes exactly the tax that is left, so the credit notes add up to the invoice.
    const tax = net === leftNet ? invoice.tax_cents - done.tax : Math.min(taxOf(net, invoice.tax_rate_bp), invoice.tax_cents - done.tax);
    const taken = await charge(trx, invoice.account_id, net, `Refund of top-up ${payment.id} (invoice ${invoice.number})`);
    const note = await issue(trx, 'credit_note', now, {
      accountId: invoice.account_id, depositId, paymentId: payment.id, refundId: taken.id, creditedInvoiceId: invoice.id,
      currency: invoice.currency, net, tax, rateBp: invoice.tax_rate_bp, taxLabel: invoice.tax_label,
      description: `Refund of account balance top-up (${payment.id}), invoice ${invoice.number}`, reason: input.reason ?? null,
    });
    try {
      await provider.refund({ ref: payment.provider_ref!, chargeRef: payment.provider_charge_ref, amountCents: note.gross_cents, idempotencyKey: note.id });
    } catch (e) {
      // Rolls everything back: no ledger row, no credit note, its number free for the next one.
      if (e instanceof ProviderError) throw new ApiError('UPSTREAM_ERROR', `The payment provider refused the refund: ${e.message}`);
      throw e;
    }
    return note;
  });
}

async function isDeposit(db: Db, id: number): Promise<boolean> {
  return (await findTransaction(db, id))?.type === 'deposit';
}

export async function listInvoices(db: Db, filter: InvoiceFilter, page: PageRequest): Promise<Paged<Invoice>> {
  const { rows, total } = await listInvoicesPage(db, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** The operator's read: any account's. */
export async function getInvoice(db: Db, id: string): Promise<Invoice> {
  const inv = await findInvoice(db, id);
  if (!inv) throw notFound('Invoice');
  return inv;
}

/** A customer's read: the account's own only (another account's is not found). */
export async function getOwnInvoice(db: Db, actor: BillingActor, id: string): Promise<Invoice> {
  requireBilling(actor, 'read');
  const inv = await findInvoice(db, id, actor.accountId);
  if (!inv) throw notFound('Invoice');
  return inv;
}

export function listOwnInvoices(db: Db, actor: BillingActor, page: PageRequest): Promise<Paged<Invoice>> {
  requireBilling(actor, 'read');
  return listInvoices(db, { accountId: actor.accountId }, page);
}

/** The invoice's PDF (a credit note names the invoice it corrects). */
export async function invoicePdf(db: Db, inv: Invoice): Promise<Buffer> {
  const credited = inv.credited_invoice_id ? await findInvoice(db, inv.credited_invoice_id) : undefined;
  return renderInvoicePdf(inv, credited?.number ?? null);
}
