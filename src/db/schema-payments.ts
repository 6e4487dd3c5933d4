// Row types of top-up and invoicing (kept apart from schema.ts, which lists them in DB).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';

export interface InvoiceSettingsTable {
  id: ColumnType<boolean, never, never>;
  company_name: string;
  address: string;
  tax_id: string;
  invoice_prefix: string;
  footer: string;
  updated_at: UpdatedAt;
}

export interface TaxRatesTable {
  country: string;
  /** Hundredths of a percent: 1900 = 19.00 %. */
  rate_bp: number;
  label: string;
  updated_at: UpdatedAt;
}

export interface AccountBillingDetailsTable {
  account_id: string;
  address: string;
  tax_id: string;
  updated_at: UpdatedAt;
}

export type PaymentProviderName = 'simulated' | 'stripe';
export type PaymentStatus = 'pending' | 'paid' | 'declined' | 'expired' | 'failed';

export interface PaymentsTable {
  id: string;
  account_id: string;
  provider: PaymentProviderName;
  provider_ref: string | null;
  provider_charge_ref: string | null;
  status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  net_cents: number;
  tax_cents: number;
  gross_cents: number;
  tax_rate_bp: number;
  tax_label: string;
  tax_country: string | null;
  currency: ColumnType<string, string | undefined, string>;
  checkout_url: string | null;
  sub_user_id: number | null;
  deposit_id: number | null;
  failure: string | null;
  created_at: CreatedAt;
  settled_at: Date | null;
  /** When the payment sweep last asked the provider about it (null: never). */
  checked_at: ColumnType<Date | null, never, Date | null>;
}

export interface PaymentWebhookReceiptsTable {
  provider: string;
  signature_hash: string;
  event_id: string;
  received_at: CreatedAt;
}

export type InvoiceKind = 'invoice' | 'credit_note';

/** The issuer's or the customer's details, as printed on the invoice. */
/** The operator as an invoice prints it; `brand` (name, #rrggbb colour) is the branding saved when it was issued, absent before any. */
export type InvoiceSeller = InvoiceParty & { footer: string; brand?: { name: string; color: string } };

export interface InvoiceParty {
  name: string;
  company?: string | null;
  address: string;
  tax_id: string;
  email?: string | null;
  country?: string | null;
}

export interface InvoiceCountersTable {
  series: InvoiceKind;
  year: number;
  last_number: number;
}

export interface InvoicesTable {
  id: string;
  kind: InvoiceKind;
  number: string;
  year: number;
  seq: number;
  account_id: string;
  deposit_id: number;
  payment_id: string | null;
  refund_id: number | null;
  credited_invoice_id: string | null;
  issued_at: Date;
  currency: string;
  net_cents: number;
  tax_cents: number;
  gross_cents: number;
  tax_rate_bp: number;
  tax_label: string;
  description: string;
  reason: string | null;
  seller: ColumnType<InvoiceSeller, string, never>;
  buyer: ColumnType<InvoiceParty, string, never>;
}

export type PaymentRefundStatus = 'pending' | 'completed' | 'failed';

export interface PaymentRefundsTable {
  id: string;
  payment_id: string;
  account_id: string;
  deposit_id: number;
  invoice_id: string;
  status: ColumnType<PaymentRefundStatus, PaymentRefundStatus | undefined, PaymentRefundStatus>;
  net_cents: number;
  tax_cents: number;
  gross_cents: number;
  requested_cents: number | null;
  reason: string | null;
  request_key: string | null;
  withdraw_id: number;
  reversal_id: ColumnType<number | null, never, number | null>;
  credit_note_id: ColumnType<string | null, never, string | null>;
  provider_refund_ref: ColumnType<string | null, never, string | null>;
  failure: ColumnType<string | null, never, string | null>;
  attempts: ColumnType<number, never, number>;
  attempted_at: ColumnType<Date | null, never, Date | null>;
  created_at: CreatedAt;
  finished_at: ColumnType<Date | null, never, Date | null>;
}

export type SimPaymentStatus = 'open' | 'paid' | 'declined' | 'expired';

export interface SimPaymentsTable {
  id: string;
  amount_cents: number;
  currency: string;
  description: string;
  reference: string;
  success_url: string;
  cancel_url: string;
  status: ColumnType<SimPaymentStatus, SimPaymentStatus | undefined, SimPaymentStatus>;
  refunded_cents: Generated<number>;
  expires_at: Date;
  created_at: CreatedAt;
  paid_at: Date | null;
}

export interface SimPaymentRefundsTable {
  idempotency_key: string;
  payment_id: string;
  amount_cents: number;
  created_at: CreatedAt;
}

export type InvoiceSettings = Selectable<InvoiceSettingsTable>;
export type TaxRate = Selectable<TaxRatesTable>;
export type AccountBillingDetails = Selectable<AccountBillingDetailsTable>;
export type Payment = Selectable<PaymentsTable>;
export type Invoice = Selectable<InvoicesTable>;
export type PaymentRefund = Selectable<PaymentRefundsTable>;
export type SimPayment = Selectable<SimPaymentsTable>;
