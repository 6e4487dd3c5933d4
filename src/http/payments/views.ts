// The JSON shapes of payments, invoices and statements, shared by the admin API and the customer
// routes the panel mounts (panel-billing/). Money is {amount, currency}, as everywhere.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { PaymentRow } from '../../core/payments/top-up.ts';
import type { Statement } from '../../core/payments/statement.ts';
import { formatRate } from '../../core/payments/tax.ts';
import { money } from '../../core/money.ts';
import { timestamp, ts } from '../../core/time.ts';
import type { Invoice } from '../../db/schema.ts';
import { MoneySchema, NullableTimestamp, StringEnum, Timestamp, ref } from '../schemas.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const PaymentSchema = Type.Object({
  id: Type.String(),
  account_id: Type.String(),
  status: StringEnum(['pending', 'paid', 'declined', 'expired', 'failed'] as const),
  amount: ref(MoneySchema),
  tax: ref(MoneySchema),
  total: ref(MoneySchema),
  tax_rate: Type.String({ description: 'Percent, two decimals' }),
  tax_label: Type.String(),
  provider: Type.String(),
  provider_ref: Nullable(Type.String()),
  checkout_url: Nullable(Type.String()),
  deposit_id: Type.Union([Type.Integer(), Type.Null()]),
  invoice_id: Nullable(Type.String()),
  failure: Nullable(Type.String()),
  created_at: Timestamp,
  settled_at: NullableTimestamp,
}, { title: 'Payment' });

export function paymentView(p: PaymentRow) {
  return {
    id: p.id, account_id: p.account_id, status: p.status, amount: money(p.net_cents), tax: money(p.tax_cents), total: money(p.gross_cents),
    tax_rate: formatRate(p.tax_rate_bp), tax_label: p.tax_label, provider: p.provider, provider_ref: p.provider_ref, checkout_url: p.checkout_url,
    deposit_id: p.deposit_id, invoice_id: p.invoice_id, failure: p.failure, created_at: ts(p.created_at), settled_at: timestamp(p.settled_at),
  };
}

const partyFields = {
  name: Type.String(),
  company: Type.Optional(Nullable(Type.String())),
  address: Type.String(),
  tax_id: Type.String(),
  email: Type.Optional(Nullable(Type.String())),
  country: Type.Optional(Nullable(Type.String())),
};
const Party = Type.Object(partyFields);

export const InvoiceSchema = Type.Object({
  id: Type.String(),
  number: Type.String(),
  kind: StringEnum(['invoice', 'credit_note'] as const),
  account_id: Type.String(),
  issued_at: Timestamp,
  net: ref(MoneySchema),
  tax: ref(MoneySchema),
  gross: ref(MoneySchema),
  tax_rate: Type.String({ description: 'Percent, two decimals' }),
  tax_label: Type.String(),
  deposit_id: Type.Integer({ description: 'The deposit invoiced, or the one a credit note refunds' }),
  payment_id: Nullable(Type.String()),
  refund_id: Type.Union([Type.Integer(), Type.Null()], { description: 'A credit note: the ledger row that took the refund off the balance' }),
  credited_invoice_id: Nullable(Type.String()),
  description: Type.String(),
  reason: Nullable(Type.String()),
  seller: Type.Object({ ...partyFields, footer: Type.String() }),
  buyer: Party,
}, { title: 'Invoice' });

export function invoiceView(i: Invoice) {
  return {
    id: i.id, number: i.number, kind: i.kind, account_id: i.account_id, issued_at: ts(i.issued_at),
    net: money(i.net_cents), tax: money(i.tax_cents), gross: money(i.gross_cents), tax_rate: formatRate(i.tax_rate_bp), tax_label: i.tax_label,
    deposit_id: i.deposit_id, payment_id: i.payment_id, refund_id: i.refund_id, credited_invoice_id: i.credited_invoice_id,
    description: i.description, reason: i.reason, seller: i.seller, buyer: i.buyer,
  };
}

export const StatementSchema = Type.Object({
  account_id: Type.String(),
  month: Type.String({ examples: ['2026-03'] }),
  from: Timestamp,
  to: Timestamp,
  opening_balance: ref(MoneySchema),
  closing_balance: ref(MoneySchema),
  deposits: ref(MoneySchema),
  refunds: ref(MoneySchema),
  charges: ref(MoneySchema),
  transactions: Type.Array(Type.Object({
    id: Type.Integer(),
    created_at: Timestamp,
    type: StringEnum(['deposit', 'withdraw', 'refund'] as const),
    description: Type.String(),
    amount: ref(MoneySchema),
    balance: ref(MoneySchema),
  })),
}, { title: 'Statement' });

export function statementView(s: Statement) {
  return {
    account_id: s.accountId, month: s.month, from: ts(s.from), to: ts(s.to),
    opening_balance: money(s.openingCents), closing_balance: money(s.closingCents),
    deposits: money(s.depositsCents), refunds: money(s.refundsCents), charges: money(s.chargesCents),
    transactions: s.lines.map((l) => ({ id: l.transactionId, created_at: ts(l.at), type: l.type, description: l.description, amount: money(l.amountCents), balance: money(l.balanceCents) })),
  };
}

/** A PDF answer: inline, named for the download. */
export function sendPdf(reply: FastifyReply, name: string, pdf: Buffer) {
  return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`)
    .header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'private, no-store').send(pdf);
}

/** The response schema of a PDF route (its body is the document, not JSON). */
export const PdfResponse = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/pdf' });
