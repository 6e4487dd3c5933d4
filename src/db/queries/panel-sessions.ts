// Customer panel sessions. A session is found by the SHA-256 of its cookie's token, with what
// decides whether it may still act (its user, the account's status, the sub-user's status and
// permissions, the staff member of an impersonation) in the same read.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { PanelSession, PanelSessionStage, StaffRole, StaffStatus } from '../schema.ts';

export interface SessionStanding {
  session: PanelSession;
  user_id: number;
  account_id: string;
  sub_user_id: number | null;
  email: string;
  totp_enabled: boolean;
  account_status: string;
  sub_user_status: string | null;
  sub_user_permissions: string[] | null;
  sub_user_deleted: boolean;
  /** The staff member signed in as the customer (an impersonation), else null. */
  impersonator: { id: string; name: string; email: string; role: StaffRole; status: StaffStatus } | null;
}

export async function findSessionStanding(db: Db, id: string): Promise<SessionStanding | undefined> {
  const row = await db.selectFrom('panel_sessions as ps')
    .innerJoin('panel_users as u', 'u.id', 'ps.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .leftJoin('sub_users as s', 's.id', 'u.sub_user_id')
    .leftJoin('staff_members as m', 'm.id', 'ps.impersonator_staff_id')
    .selectAll('ps')
    .select([
      'm.name as staff_name', 'm.email as staff_email', 'm.role as staff_role', 'm.status as staff_status',
      'u.account_id', 'u.sub_user_id', 'u.email',
      sql<boolean>`u.totp_enabled_at IS NOT NULL`.as('totp_enabled'),
      'a.status as account_status',
      's.status as sub_user_status',
      's.permissions as sub_user_permissions',
      sql<boolean>`s.deleted_at IS NOT NULL`.as('sub_user_deleted'),
    ])
    .where('ps.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { account_id, sub_user_id, email, totp_enabled, account_status, sub_user_status, sub_user_permissions, sub_user_deleted, staff_name, staff_email, staff_role, staff_status, ...session } = row;
  const impersonator = session.impersonator_staff_id === null || staff_name === null || staff_email === null || staff_role === null || staff_status === null
    ? null
    : { id: session.impersonator_staff_id, name: staff_name, email: staff_email, role: staff_role, status: staff_status };
  return { session, user_id: session.user_id, account_id, sub_user_id, email, totp_enabled, account_status, sub_user_status, sub_user_permissions, sub_user_deleted, impersonator };
}

export interface NewSession {
  id: string; public_id: string; user_id: number; stage: PanelSessionStage; ip: string; user_agent: string; expires_at: Date; created_at: Date;
  /** An impersonation: the staff member, why, and whether it may only read. */
  impersonator_staff_id?: string; reason?: string; read_only?: boolean;
}

export async function insertSession(db: Db, row: NewSession): Promise<PanelSession> {
  return db.insertInto('panel_sessions').values({ ...row, last_seen_at: row.created_at }).returningAll().executeTakeFirstOrThrow();
}

export async function touchSession(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('panel_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function revokeSessionRow(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('panel_sessions').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Revokes one of the user's sessions by its public id; false when it has none by that id. */
export async function revokeUserSession(db: Db, userId: number, publicId: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('panel_sessions').set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('user_id', '=', userId).where('public_id', '=', publicId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Every live session of the user, but `exceptId`. */
export async function revokeUserSessions(db: Db, userId: number, at: Date, exceptId?: string): Promise<number> {
  let q = db.updateTable('panel_sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A live session as the session list shows it: with the name of the staff member of an impersonation. */
export type ListedSession = PanelSession & { staff_name: string | null };

/** The user's sessions that can still act: not revoked, within both ends, newest first. */
export function listLiveSessions(db: Db, userId: number, at: Date, idleS: number): Promise<ListedSession[]> {
  return db.selectFrom('panel_sessions as ps')
    .leftJoin('staff_members as m', 'm.id', 'ps.impersonator_staff_id')
    .selectAll('ps').select('m.name as staff_name')
    .where('ps.user_id', '=', userId).where('ps.revoked_at', 'is', null).where('ps.stage', '=', 'full')
    .where('ps.expires_at', '>', at)
    .where('ps.last_seen_at', '>', new Date(at.getTime() - idleS * 1000))
    .orderBy('ps.created_at', 'desc').limit(100)
    .execute();
}

/** Sessions that ended (revoked, or past their absolute end) before `before`; an impersonation once its end is audited. */
export async function deleteEndedSessions(db: Db, before: Date): Promise<number> {
  const r = await db.deleteFrom('panel_sessions')
    .where((eb) => eb.or([eb('revoked_at', '<', before), eb('expires_at', '<', before)]))
    .where((eb) => eb.or([eb('impersonator_staff_id', 'is', null), eb('end_audited_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
