// People who sign in to the customer panel, their recovery codes and single-use links.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { PanelLink, PanelLinkKind, PanelUser } from '../schema.ts';

/** A panel user with what decides whether it may act: its account's status and its sub-user's. */
export interface PanelUserStanding extends PanelUser {
  account_status: string;
  sub_user_status: string | null;
  sub_user_permissions: string[] | null;
  sub_user_deleted: boolean;
}

function standing(db: Db) {
  return db.selectFrom('panel_users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .leftJoin('sub_users as s', 's.id', 'u.sub_user_id')
    .selectAll('u')
    .select([
      'a.status as account_status',
      's.status as sub_user_status',
      's.permissions as sub_user_permissions',
      sql<boolean>`s.deleted_at IS NOT NULL`.as('sub_user_deleted'),
    ]);
}

export function findPanelUserByEmail(db: Db, email: string): Promise<PanelUserStanding | undefined> {
  return standing(db).where(sql`lower(u.email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function findPanelUser(db: Db, id: number): Promise<PanelUserStanding | undefined> {
  return standing(db).where('u.id', '=', id).executeTakeFirst();
}

export function lockPanelUser(db: Db, id: number): Promise<PanelUser | undefined> {
  return db.selectFrom('panel_users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findOwnerUser(db: Db, accountId: string): Promise<PanelUser | undefined> {
  return db.selectFrom('panel_users').selectAll().where('account_id', '=', accountId).where('sub_user_id', 'is', null).executeTakeFirst();
}

export function findSubUserPanelUsers(db: Db, accountId: string, subUserIds: number[]): Promise<PanelUser[]> {
  if (subUserIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('panel_users').selectAll().where('account_id', '=', accountId).where('sub_user_id', 'in', subUserIds).execute();
}

/** The new user, or undefined when the email already signs in (unique index). */
export function insertPanelUser(db: Db, row: { account_id: string; sub_user_id: number | null; email: string; password_hash?: string | null; email_verified_at?: Date | null }): Promise<PanelUser | undefined> {
  return db.insertInto('panel_users').values(row)
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll().executeTakeFirst();
}

export interface PanelUserPatch {
  email?: string;
  password_hash?: string | null;
  email_verified_at?: Date | null;
  totp_secret?: string | null;
  totp_enabled_at?: Date | null;
  totp_last_step?: number | null;
}

export function updatePanelUser(db: Db, id: number, patch: PanelUserPatch, at: Date): Promise<PanelUser | undefined> {
  return db.updateTable('panel_users').set({ ...patch, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Accepts a TOTP step only if it is later than the last accepted one (a code works once). */
export async function claimTotpStep(db: Db, id: number, step: number): Promise<boolean> {
  const r = await db.updateTable('panel_users').set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deletePanelUserOfSubUser(db: Db, accountId: string, subUserId: number): Promise<number> {
  const r = await db.deleteFrom('panel_users').where('account_id', '=', accountId).where('sub_user_id', '=', subUserId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('panel_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length) await db.insertInto('panel_recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash }))).execute();
}

/** Spends one unused recovery code; false when there is none with this hash. */
export async function spendRecoveryCode(db: Db, userId: number, hash: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('panel_recovery_codes').set({ used_at: at })
    .where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const r = await db.selectFrom('panel_recovery_codes').select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
  return r.n;
}

export async function insertPanelLink(db: Db, row: { token_hash: string; kind: PanelLinkKind; user_id: number; expires_at: Date }): Promise<void> {
  await db.insertInto('panel_links').values(row).execute();
}

/** Earlier unused links of this kind stop working when a new one is sent. */
export async function retirePanelLinks(db: Db, userId: number, kinds: PanelLinkKind[], at: Date): Promise<void> {
  await db.updateTable('panel_links').set({ used_at: at })
    .where('user_id', '=', userId).where('kind', 'in', kinds).where('used_at', 'is', null).execute();
}

export function findPanelLink(db: Db, tokenHash: string): Promise<PanelLink | undefined> {
  return db.selectFrom('panel_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Spends a link once: false when it was already used (a concurrent use lost the race). */
export async function spendPanelLink(db: Db, tokenHash: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('panel_links').set({ used_at: at })
    .where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Links spent or expired before `before`. */
export async function deleteEndedLinks(db: Db, before: Date): Promise<number> {
  const r = await db.deleteFrom('panel_links')
    .where((eb) => eb.or([eb('used_at', '<', before), eb('expires_at', '<', before)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
