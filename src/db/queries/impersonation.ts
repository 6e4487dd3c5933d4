// Staff signed in as a customer: the single-use links that start it (impersonation_links, by the
// SHA-256 of their ticket) and the ends of impersonation sessions (panel_sessions rows with an
// impersonator), each audited once.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { StaffMember } from '../schema.ts';

export interface NewImpersonationLink {
  ticket_hash: string;
  account_id: string;
  user_id: number;
  staff_id: string;
  reason: string;
  read_only: boolean;
  expires_at: Date;
}

export async function insertImpersonationLink(db: Db, row: NewImpersonationLink): Promise<void> {
  await db.insertInto('impersonation_links').values(row).execute();
}

/** Links past their expiry (used or not): they open nothing any more. */
export async function deleteExpiredImpersonationLinks(db: Db, at: Date): Promise<void> {
  await db.deleteFrom('impersonation_links').where('expires_at', '<', at).execute();
}

export interface SpentImpersonationLink {
  account_id: string;
  user_id: number;
  staff_id: string;
  reason: string;
  read_only: boolean;
}

/** Spends a link, once within its lifetime (one UPDATE: of two openers one wins); undefined after. */
export function spendImpersonationLink(db: Db, ticketHash: string, at: Date): Promise<SpentImpersonationLink | undefined> {
  return db.updateTable('impersonation_links').set({ used_at: at })
    .where('ticket_hash', '=', ticketHash).where('used_at', 'is', null).where('expires_at', '>', at)
    .returning(['account_id', 'user_id', 'staff_id', 'reason', 'read_only'])
    .executeTakeFirst();
}

/** The staff member whose email is one of `emails` (any case), if any. */
export function findStaffByAnyEmail(db: Db, emails: string[]): Promise<StaffMember | undefined> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  return db.selectFrom('staff_members').selectAll().where(sql`lower(email)`, 'in', wanted).executeTakeFirst();
}

/** Ends an impersonation session now and marks its end audited; false when its end was audited already. */
export async function endImpersonationSession(db: Db, id: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('panel_sessions')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)), end_audited_at: at }))
    .where('id', '=', id).where('impersonator_staff_id', 'is not', null).where('end_audited_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface EndedImpersonation {
  public_id: string;
  account_id: string;
  staff_id: string;
  staff_email: string;
  reason: string;
  read_only: boolean;
  revoked_at: Date | null;
  expires_at: Date;
  last_seen_at: Date;
}

/**
 * Impersonation sessions that ended (revoked, or past their absolute end) with their end not yet
 * audited, marked audited at `at`: the caller writes their audit rows in the same transaction.
 * SKIP LOCKED: two sweeps never claim one.
 */
export async function claimEndedImpersonations(db: Db, at: Date, limit: number): Promise<EndedImpersonation[]> {
  const r = await sql<EndedImpersonation>`
    WITH ended AS (
      SELECT id FROM panel_sessions
      WHERE impersonator_staff_id IS NOT NULL AND end_audited_at IS NULL
        AND (revoked_at IS NOT NULL OR expires_at <= ${at})
      ORDER BY expires_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE panel_sessions ps SET end_audited_at = ${at}
    FROM ended, panel_users u, staff_members m
    WHERE ps.id = ended.id AND u.id = ps.user_id AND m.id = ps.impersonator_staff_id
    RETURNING ps.public_id, u.account_id, m.id AS staff_id, m.email AS staff_email, ps.reason, ps.read_only,
      ps.revoked_at, ps.expires_at, ps.last_seen_at`.execute(db);
  return r.rows;
}
