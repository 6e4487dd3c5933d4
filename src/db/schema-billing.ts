// Row types of recurring billing (kept apart from schema.ts, which lists them in DB).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt } from './schema-columns.ts';

/** What recurring billing charges (billing_charges.resource_type); the API's enums are this list. */
export const BILLABLE_TYPES = ['server', 'web_hosting', 'domain', 'vdc_pool'] as const;
export type BillableType = (typeof BILLABLE_TYPES)[number];
export type BillingChargeStatus = 'due' | 'paid' | 'void';

export interface BillingChargesTable {
  id: ColumnType<number, never, never>;
  account_id: string;
  resource_type: BillableType;
  resource_id: string;
  period_start: Date;
  period_end: Date;
  amount_cents: number;
  description: string;
  status: BillingChargeStatus;
  transaction_id: number | null;
  due_since: Date;
  attempts: Generated<number>;
  last_error: string | null;
  paid_at: Date | null;
  created_at: CreatedAt;
}

export interface BillingNoticesTable {
  resource_type: string;
  resource_id: string;
  kind: string;
  occasion: string;
  created_at: CreatedAt;
}

export type BillingCharge = Selectable<BillingChargesTable>;

export type TransactionType = 'deposit' | 'withdraw' | 'refund';

export interface TransactionsTable {
  id: Generated<number>;
  account_id: string;
  type: TransactionType;
  amount_cents: number;
  /** Filled by the trigger that applies the row to the balance. */
  balance_after_cents: ColumnType<number, never, never>;
  description: string;
  status: Generated<string>;
  created_at: CreatedAt;
}

export type Transaction = Selectable<TransactionsTable>;
