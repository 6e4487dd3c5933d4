// Invoices and credit notes. A paid top-up issues its invoice in the transaction that credits the
// deposit; a refund of that deposit issues a credit note referring to the invoice, in the
// transaction that completes the refund once the provider has paid it back (refunds.ts). Each is
// numbered gaplessly per series and year (`<PREFIX>-2026-000001`, credit notes
// `<PREFIX>-CN-2026-000001`), prints the operator's and the customer's details as they are at
// issue, and never changes afterwards (the database refuses).
import { findAccount } from '../../db/queries/accounts.ts';
import {
  type InvoiceFilter, findBillingDetails, findInvoice, getInvoiceSettingsRow, insertInvoice, listInvoicesPage, nextInvoiceNumber,
} from '../../db/queries/invoices.ts';
import type { Invoice, InvoiceKind, InvoiceParty, InvoiceSeller, Payment, Transaction } from '../../db/schema.ts';
import { savedBranding } from '../branding/branding.ts';
import { notFound } from '../errors.ts';
import { base62 } from '../ids.ts';
import type { Cents } from '../money.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type BillingActor, requireBilling } from './access.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';

export type { Invoice };

export function invoiceNumber(prefix: string, kind: InvoiceKind, year: number, seq: number): string {
  return `${prefix}-${kind === 'credit_note' ? 'CN-' : ''}${year}-${String(seq).padStart(6, '0')}`;
}

/** The operator's details and the customer's, as they stand now (inside the issuing transaction). */
async function parties(db: Db, accountId: string): Promise<{ prefix: string; seller: InvoiceSeller; buyer: InvoiceParty }> {
  const [s, account, details, branding] = await Promise.all([getInvoiceSettingsRow(db), findAccount(db, accountId), findBillingDetails(db, accountId), savedBranding(db)]);
  if (!account) throw notFound('Account');
  return {
    prefix: s.invoice_prefix,
    seller: {
      name: s.company_name, address: s.address, tax_id: s.tax_id, footer: s.footer,
      // The brand as it is at issue, like the rest: an invoice never changes afterwards.
      ...(branding ? { brand: { name: branding.name, color: branding.primary_color } } : {}),
    },
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

/**
 * The credit note of a refund of `invoice` (refunds.ts): `withdrawId` is the ledger row that took
 * the refund off the balance. Call it in the transaction that completes the refund.
 */
export function issueCreditNote(db: Db, invoice: Invoice, r: { paymentId: string; withdrawId: number; net: Cents; tax: Cents; reason: string | null }, now: Date): Promise<Invoice> {
  return issue(db, 'credit_note', now, {
    accountId: invoice.account_id, depositId: invoice.deposit_id, paymentId: r.paymentId, refundId: r.withdrawId, creditedInvoiceId: invoice.id,
    currency: invoice.currency, net: r.net, tax: r.tax, rateBp: invoice.tax_rate_bp, taxLabel: invoice.tax_label,
    description: `Refund of account balance top-up (${r.paymentId}), invoice ${invoice.number}`, reason: r.reason,
  });
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
