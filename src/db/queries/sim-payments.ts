// The simulated payment provider's world: checkout sessions and refunds (src/providers/payments/simulated.ts).
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { SimPayment, SimPaymentStatus } from '../schema.ts';

export function insertSimPayment(db: Db, row: {
  id: string; amount_cents: number; currency: string; description: string; reference: string; success_url: string; cancel_url: string; expires_at: Date;
}): Promise<SimPayment> {
  return db.insertInto('sim_payments').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findSimPayment(db: Db, id: string): Promise<SimPayment | undefined> {
  return db.selectFrom('sim_payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Settles an open session as paid or declined (one UPDATE decides: of two clicks, one settles it).
 * Answers the session as it stands after, whoever settled it; undefined when it does not exist.
 */
export async function settleSimPayment(db: Db, id: string, to: Extract<SimPaymentStatus, 'paid' | 'declined'>, now: Date): Promise<SimPayment | undefined> {
  const r = await sql<SimPayment>`
    WITH s AS (
      UPDATE sim_payments SET status = ${to}, paid_at = CASE WHEN ${to} = 'paid' THEN ${now}::timestamptz END
       WHERE id = ${id} AND status = 'open' AND expires_at > ${now}
      RETURNING *)
    SELECT * FROM s UNION ALL SELECT * FROM sim_payments WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM s)`.execute(db);
  return r.rows[0];
}

/**
 * Records a refund under its idempotency key: a second call with the key changes nothing. False when
 * the session is not paid or the refunds would exceed what was paid.
 */
export async function refundSimPayment(db: Db, id: string, cents: number, key: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const seen = await trx.selectFrom('sim_payment_refunds').select('payment_id').where('idempotency_key', '=', key).executeTakeFirst();
    if (seen) return seen.payment_id === id;
    const upd = await trx.updateTable('sim_payments').set((eb) => ({ refunded_cents: eb('refunded_cents', '+', cents) }))
      .where('id', '=', id).where('status', '=', 'paid').where(sql<boolean>`refunded_cents + ${cents}::bigint <= amount_cents`)
      .executeTakeFirst();
    if (Number(upd.numUpdatedRows) !== 1) return false;
    await trx.insertInto('sim_payment_refunds').values({ idempotency_key: key, payment_id: id, amount_cents: cents }).execute();
    return true;
  });
}
