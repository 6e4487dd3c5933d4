// The notifications outbox: notices written with the change that caused them, claimed by senders
// with SKIP LOCKED (several workers never hold one notice at once), listed for the operator.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Notification, NotificationsTable, NotificationStatus } from '../schema.ts';

export type NewNotification = Required<Pick<Insertable<NotificationsTable>, 'account_id' | 'kind' | 'to_email' | 'subject' | 'body'>>;

export function insertNotification(trx: Db, row: NewNotification): Promise<Notification> {
  return trx.insertInto('notifications').values(row).returningAll().executeTakeFirstOrThrow();
}

export interface NotificationFilter {
  accountId?: string;
  status?: NotificationStatus;
  kind?: string;
  /** Part of the address or the subject, any case. */
  q?: string;
}

/** One page, newest first, and the total (a page past the end counts separately). */
export async function listNotificationsPage(db: Db, f: NotificationFilter, limit: number, offset: number): Promise<{ rows: Notification[]; total: number }> {
  let q = db.selectFrom('notifications');
  if (f.accountId !== undefined) q = q.where('account_id', '=', f.accountId);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
  if (f.q !== undefined) {
    const like = `%${f.q.replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where((eb) => eb.or([eb('to_email', 'ilike', like), eb('subject', 'ilike', like)]));
  }
  const rows = await q.selectAll()
    .select(() => q.select(sql<number>`count(*)::int`.as('n')).as('total'))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]!.total ?? 0 };
  const count = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows: [], total: count.n };
}

/**
 * Claims up to `limit` due notices for one sender: counts the attempt and moves their next attempt
 * `leaseS` ahead, so no other sender picks them up while this one works (SKIP LOCKED: concurrent
 * claims take different rows), and a sender that dies gives them back when the lease lapses.
 */
export async function claimDueNotifications(db: Db, limit: number, leaseS: number): Promise<Notification[]> {
  return db.updateTable('notifications')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      next_attempt_at: sql<Date>`now() + make_interval(secs => ${leaseS})`,
    }))
    .where('id', 'in', (eb) => eb.selectFrom('notifications').select('id')
      .where('status', '=', 'queued').where('next_attempt_at', '<=', sql<Date>`now()`)
      .orderBy('next_attempt_at').orderBy('id').limit(limit).forUpdate().skipLocked())
    .returningAll().execute();
}

/** Records a delivery; false when the claim was no longer this sender's (its lease lapsed and another took it). */
export async function markNotificationSent(db: Db, id: number, attempt: number): Promise<boolean> {
  const r = await db.updateTable('notifications').set({ status: 'sent', sent_at: sql<Date>`now()` })
    .where('id', '=', id).where('status', '=', 'queued').where('attempts', '=', attempt).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Records a failed attempt: queued again after `retryAfterS`, or `failed` for good when that is null. */
export async function markNotificationFailure(db: Db, id: number, attempt: number, error: string, retryAfterS: number | null): Promise<void> {
  await db.updateTable('notifications')
    .set(retryAfterS === null
      ? { status: 'failed', last_error: error }
      : { last_error: error, next_attempt_at: sql<Date>`now() + make_interval(secs => ${retryAfterS})` })
    .where('id', '=', id).where('status', '=', 'queued').where('attempts', '=', attempt).execute();
}

export function lockNotification(trx: Db, id: number): Promise<Notification | undefined> {
  return trx.selectFrom('notifications').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** A failed notice queued again as it is: its attempts start over, due now (its last error kept until a send succeeds). */
export function requeueNotification(trx: Db, id: number): Promise<Notification> {
  return trx.updateTable('notifications')
    .set({ status: 'queued', attempts: 0, next_attempt_at: sql<Date>`now()` })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
