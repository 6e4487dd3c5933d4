// Refunds of paid top-ups (src/core/payments/refunds.ts): written pending before the provider is
// asked, completed with their credit note or failed with their reversal after.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { PaymentRefund } from '../schema.ts';

export type NewPaymentRefund = Pick<PaymentRefund,
  'id' | 'payment_id' | 'account_id' | 'deposit_id' | 'invoice_id' | 'net_cents' | 'tax_cents' | 'gross_cents' | 'requested_cents' | 'reason' | 'request_key' | 'withdraw_id'>;

export function insertPaymentRefund(db: Db, row: NewPaymentRefund): Promise<PaymentRefund> {
  return db.insertInto('payment_refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findRefundByKey(db: Db, key: string): Promise<PaymentRefund | undefined> {
  return db.selectFrom('payment_refunds').selectAll().where('request_key', '=', key).executeTakeFirst();
}

/** The payment's refund in flight, if any (there is at most one). */
export function findPendingRefund(db: Db, paymentId: string): Promise<PaymentRefund | undefined> {
  return db.selectFrom('payment_refunds').selectAll().where('payment_id', '=', paymentId).where('status', '=', 'pending').executeTakeFirst();
}

/** The refund, locked until the transaction ends: its completion and its failure queue here. */
export function lockRefund(db: Db, id: string): Promise<PaymentRefund | undefined> {
  return db.selectFrom('payment_refunds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** What the refunds of an invoice, pending or completed, take of it. */
export async function refundedTotals(db: Db, invoiceId: string): Promise<{ net: number; tax: number }> {
  const r = await db.selectFrom('payment_refunds').where('invoice_id', '=', invoiceId).where('status', '<>', 'failed')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('net_cents'), eb.lit(0)).as('net'), eb.fn.coalesce(eb.fn.sum<number>('tax_cents'), eb.lit(0)).as('tax')])
    .executeTakeFirstOrThrow();
  return { net: Number(r.net), tax: Number(r.tax) };
}

export function completeRefund(db: Db, id: string, p: { creditNoteId: string; providerRef: string; now: Date }): Promise<PaymentRefund> {
  return db.updateTable('payment_refunds')
    .set({ status: 'completed', credit_note_id: p.creditNoteId, provider_refund_ref: p.providerRef, failure: null, finished_at: p.now })
    .where('id', '=', id).where('status', '=', 'pending').returningAll().executeTakeFirstOrThrow();
}

export function failRefund(db: Db, id: string, p: { reversalId: number; failure: string; now: Date }): Promise<PaymentRefund> {
  return db.updateTable('payment_refunds')
    .set({ status: 'failed', reversal_id: p.reversalId, failure: p.failure, finished_at: p.now })
    .where('id', '=', id).where('status', '=', 'pending').returningAll().executeTakeFirstOrThrow();
}

/** An attempt that did not settle the refund (the provider erred): counted, and why, for the operator and the sweeper. */
export async function noteRefundAttempt(db: Db, id: string, failure: string | null, now: Date): Promise<void> {
  await db.updateTable('payment_refunds').set((eb) => ({ attempts: eb('attempts', '+', 1), attempted_at: now, failure }))
    .where('id', '=', id).where('status', '=', 'pending').execute();
}

/**
 * Claims pending refunds last attempted before `before` (never attempted: created before it) for
 * one sweep: each is marked attempted now, so another worker's sweep skips it; rows another
 * transaction holds are skipped rather than waited for.
 */
export async function claimStaleRefunds(db: Db, before: Date, now: Date, limit: number): Promise<PaymentRefund[]> {
  const r = await sql<PaymentRefund>`
    UPDATE payment_refunds SET attempted_at = ${now}
     WHERE id IN (
       SELECT id FROM payment_refunds
        WHERE status = 'pending' AND coalesce(attempted_at, created_at) < ${before}
        ORDER BY coalesce(attempted_at, created_at) LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return r.rows;
}
