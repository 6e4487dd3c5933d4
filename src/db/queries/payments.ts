// Payments (top-ups) and the webhook receipts that refuse a replayed request.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Payment, PaymentProviderName, PaymentStatus } from '../schema.ts';

export type NewPayment = Pick<Payment, 'id' | 'account_id' | 'provider' | 'net_cents' | 'tax_cents' | 'gross_cents' | 'tax_rate_bp' | 'tax_label' | 'tax_country' | 'currency' | 'sub_user_id'>;

export function insertPayment(db: Db, row: NewPayment): Promise<Payment> {
  return db.insertInto('payments').values(row).returningAll().executeTakeFirstOrThrow();
}

export function setCheckout(db: Db, id: string, ref: string, url: string): Promise<Payment> {
  return db.updateTable('payments').set({ provider_ref: ref, checkout_url: url }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A payment with the id of the invoice it issued (null until it is paid). */
export type PaymentRow = Payment & { invoice_id: string | null };

const withInvoice = sql<string | null>`(SELECT i.id FROM invoices i WHERE i.payment_id = payments.id AND i.kind = 'invoice')`.as('invoice_id');

export function findPayment(db: Db, id: string, accountId?: string): Promise<PaymentRow | undefined> {
  let q = db.selectFrom('payments').selectAll().select(withInvoice).where('id', '=', id);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.executeTakeFirst();
}

export function findPaymentByRef(db: Db, provider: PaymentProviderName, ref: string): Promise<Payment | undefined> {
  return db.selectFrom('payments').selectAll().where('provider', '=', provider).where('provider_ref', '=', ref).executeTakeFirst();
}

/**
 * The payment, locked until the transaction ends: every confirmation of one payment queues here,
 * and each one after the first finds it paid.
 */
export function lockPaymentByRef(db: Db, provider: PaymentProviderName, ref: string): Promise<Payment | undefined> {
  return db.selectFrom('payments').selectAll().where('provider', '=', provider).where('provider_ref', '=', ref).forUpdate().executeTakeFirst();
}

export function lockPayment(db: Db, id: string): Promise<Payment | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function markPaid(db: Db, id: string, p: { depositId: number; chargeRef: string | null; now: Date }): Promise<Payment> {
  return db.updateTable('payments')
    .set({ status: 'paid', deposit_id: p.depositId, provider_charge_ref: p.chargeRef, settled_at: p.now, failure: null })
    .where('id', '=', id).where('status', '<>', 'paid').returningAll().executeTakeFirstOrThrow();
}

/** pending → declined | expired | failed; a payment that is no longer pending is left as it is. */
export function markUnpaid(db: Db, id: string, status: Exclude<PaymentStatus, 'pending' | 'paid'>, failure: string | null, now: Date): Promise<Payment | undefined> {
  return db.updateTable('payments').set({ status, failure, settled_at: now })
    .where('id', '=', id).where('status', '=', 'pending').returningAll().executeTakeFirst();
}

/** A note on a payment the provider's word could not settle (an amount that does not match). */
export async function noteFailure(db: Db, id: string, failure: string): Promise<void> {
  await db.updateTable('payments').set({ failure }).where('id', '=', id).execute();
}

/**
 * Claims the pending payments a sweep should ask the provider about: started before `olderThan`,
 * and not asked since `recheck` ago (`recheckOld` for those started before `oldSince`). Each is
 * marked asked now, so another worker's sweep skips it; rows a confirmation holds are skipped
 * rather than waited for.
 */
export async function claimDuePayments(db: Db, c: { now: Date; olderThan: Date; oldSince: Date; recheckMs: number; recheckOldMs: number; limit: number }): Promise<Payment[]> {
  const r = await sql<Payment>`
    UPDATE payments SET checked_at = ${c.now}
     WHERE id IN (
       SELECT id FROM payments
        WHERE status = 'pending' AND created_at < ${c.olderThan}
          AND (checked_at IS NULL OR checked_at < ${c.now}::timestamptz
               - make_interval(secs => CASE WHEN created_at < ${c.oldSince} THEN ${c.recheckOldMs / 1000}::float8 ELSE ${c.recheckMs / 1000}::float8 END))
        ORDER BY created_at LIMIT ${c.limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return r.rows;
}

export interface PaymentFilter {
  accountId?: string;
  status?: PaymentStatus;
}

export async function listPaymentsPage(db: Db, f: PaymentFilter, limit: number, offset: number): Promise<{ rows: PaymentRow[]; total: number }> {
  let q = db.selectFrom('payments');
  if (f.accountId !== undefined) q = q.where('account_id', '=', f.accountId);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  const [rows, count] = await Promise.all([
    q.selectAll().select(withInvoice).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Forgets receipts older than `keepS` (a request that old is refused for its timestamp anyway).
 * Rows another pruner holds are skipped, so concurrent webhooks never wait on each other here.
 */
export async function pruneWebhookReceipts(db: Db, keepS: number): Promise<void> {
  await sql`
    DELETE FROM payment_webhook_receipts WHERE ctid IN (
      SELECT ctid FROM payment_webhook_receipts WHERE received_at < now() - make_interval(secs => ${keepS})
       LIMIT 1000 FOR UPDATE SKIP LOCKED)`.execute(db);
}

/**
 * Records a signed webhook request by the hash of its signature; false when the very same request
 * was taken before (a replay). In the transaction that acts on it: a request whose work rolled back
 * may come again.
 */
export async function recordWebhookReceipt(db: Db, r: { provider: string; signatureHash: string; eventId: string }): Promise<boolean> {
  const row = await db.insertInto('payment_webhook_receipts')
    .values({ provider: r.provider, signature_hash: r.signatureHash, event_id: r.eventId })
    .onConflict((oc) => oc.columns(['provider', 'signature_hash']).doNothing())
    .returning('event_id').executeTakeFirst();
  return row !== undefined;
}
