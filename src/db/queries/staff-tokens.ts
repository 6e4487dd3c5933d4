// Staff API tokens (hc_staff_…): only their SHA-256 is kept.
import type { Db } from '../connection.ts';
import type { StaffMember, StaffToken } from '../schema.ts';

export function insertStaffToken(db: Db, row: { id: string; staff_id: string; name: string; prefix: string; token_hash: string; ip_allowlist: string[] | null }): Promise<StaffToken> {
  return db.insertInto('staff_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

export function listStaffTokens(db: Db, staffId: string): Promise<StaffToken[]> {
  return db.selectFrom('staff_tokens').selectAll().where('staff_id', '=', staffId).where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function findStaffToken(db: Db, id: string): Promise<StaffToken | undefined> {
  return db.selectFrom('staff_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeStaffTokenRow(db: Db, id: string, at: Date): Promise<StaffToken | undefined> {
  return db.updateTable('staff_tokens').set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('id', '=', id).returningAll().executeTakeFirst();
}

export async function revokeMemberTokens(db: Db, staffId: string, at: Date): Promise<number> {
  const r = await db.updateTable('staff_tokens').set({ revoked_at: at }).where('staff_id', '=', staffId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A live token by its hash, with its member. */
export async function findTokenByHash(db: Db, hash: string): Promise<{ token: StaffToken; member: StaffMember } | undefined> {
  const token = await db.selectFrom('staff_tokens').selectAll().where('token_hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
  if (!token) return undefined;
  const member = await db.selectFrom('staff_members').selectAll().where('id', '=', token.staff_id).executeTakeFirst();
  return member && { token, member };
}

export async function noteStaffTokenUsed(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('staff_tokens').set({ last_used_at: at }).where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(at.getTime() - 60_000))]))
    .execute();
}
