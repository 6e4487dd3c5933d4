// Staff members, their recovery codes, set-password links and sessions.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { StaffMember, StaffRole, StaffSession, StaffSessionStage, StaffStatus } from '../schema.ts';

export function insertStaffMember(db: Db, row: { id: string; email: string; name: string; role: StaffRole }): Promise<StaffMember | undefined> {
  return db.insertInto('staff_members').values(row)
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll().executeTakeFirst();
}

export function findStaffMember(db: Db, id: string): Promise<StaffMember | undefined> {
  return db.selectFrom('staff_members').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockStaffMember(db: Db, id: string): Promise<StaffMember | undefined> {
  return db.selectFrom('staff_members').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findStaffByEmail(db: Db, email: string): Promise<StaffMember | undefined> {
  return db.selectFrom('staff_members').selectAll().where(sql`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

export interface StaffFilter {
  role?: StaffRole;
  status?: StaffStatus;
}

export async function listStaffMembers(db: Db, f: StaffFilter, limit: number, offset: number): Promise<{ rows: StaffMember[]; total: number }> {
  let q = db.selectFrom('staff_members');
  if (f.role) q = q.where('role', '=', f.role);
  if (f.status) q = q.where('status', '=', f.status);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export interface StaffPatch {
  name?: string;
  role?: StaffRole;
  status?: StaffStatus;
  password_hash?: string | null;
  totp_secret?: string | null;
  totp_enabled_at?: Date | null;
  totp_last_step?: number | null;
}

export function updateStaffMember(db: Db, id: string, patch: StaffPatch, at: Date): Promise<StaffMember | undefined> {
  return db.updateTable('staff_members').set({ ...patch, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function claimStaffTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const r = await db.updateTable('staff_members').set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function replaceStaffRecoveryCodes(db: Db, staffId: string, hashes: string[]): Promise<void> {
  await db.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
  if (hashes.length) await db.insertInto('staff_recovery_codes').values(hashes.map((code_hash) => ({ staff_id: staffId, code_hash }))).execute();
}

export async function spendStaffRecoveryCode(db: Db, staffId: string, hash: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('staff_recovery_codes').set({ used_at: at })
    .where('staff_id', '=', staffId).where('code_hash', '=', hash).where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertStaffLink(db: Db, row: { token_hash: string; staff_id: string; expires_at: Date }, at: Date): Promise<void> {
  await db.updateTable('staff_links').set({ used_at: at }).where('staff_id', '=', row.staff_id).where('used_at', 'is', null).execute();
  await db.insertInto('staff_links').values(row).execute();
}

export function findStaffLink(db: Db, tokenHash: string) {
  return db.selectFrom('staff_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function spendStaffLink(db: Db, tokenHash: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('staff_links').set({ used_at: at })
    .where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface StaffSessionStanding {
  session: StaffSession;
  member: StaffMember;
}

export async function findStaffSession(db: Db, id: string): Promise<StaffSessionStanding | undefined> {
  const session = await db.selectFrom('staff_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!session) return undefined;
  const member = await findStaffMember(db, session.staff_id);
  return member && { session, member };
}

export function insertStaffSession(db: Db, row: { id: string; public_id: string; staff_id: string; stage: StaffSessionStage; ip: string; user_agent: string; expires_at: Date; created_at: Date }): Promise<StaffSession> {
  return db.insertInto('staff_sessions').values({ ...row, last_seen_at: row.created_at }).returningAll().executeTakeFirstOrThrow();
}

export async function touchStaffSession(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('staff_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function revokeStaffSessionRow(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('staff_sessions').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function revokeMemberSession(db: Db, staffId: string, publicId: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('staff_sessions').set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('staff_id', '=', staffId).where('public_id', '=', publicId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function revokeMemberSessions(db: Db, staffId: string, at: Date): Promise<number> {
  const r = await db.updateTable('staff_sessions').set({ revoked_at: at }).where('staff_id', '=', staffId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export function listMemberSessions(db: Db, staffId: string, at: Date, idleS: number): Promise<StaffSession[]> {
  return db.selectFrom('staff_sessions').selectAll()
    .where('staff_id', '=', staffId).where('revoked_at', 'is', null).where('stage', '=', 'full')
    .where('expires_at', '>', at)
    .where('last_seen_at', '>', new Date(at.getTime() - idleS * 1000))
    .orderBy('created_at', 'desc').limit(100)
    .execute();
}
