// Sub-users of an account. A deleted one keeps its row (its revoked keys still name it) but
// leaves every list, frees its email and holds no permission.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { SubUser, SubUsersTable, SubUserStatus } from '../schema.ts';

export type NewSubUser = Required<Pick<Insertable<SubUsersTable>, 'account_id' | 'email' | 'first_name' | 'last_name' | 'password_hash'>>;

/** The new sub-user, or undefined when a live one of the account has this email (unique index). */
export function insertSubUser(db: Db, row: NewSubUser): Promise<SubUser | undefined> {
  return db.insertInto('sub_users').values(row)
    .onConflict((oc) => oc.expression(sql`account_id, lower(email)`).where('deleted_at', 'is', null).doNothing())
    .returningAll().executeTakeFirst();
}

export function findAccountSubUser(db: Db, accountId: string, id: number): Promise<SubUser | undefined> {
  return db.selectFrom('sub_users').selectAll()
    .where('account_id', '=', accountId).where('id', '=', id).where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The live sub-user, row-locked for the rest of the transaction (a delete and a key creation serialise on it). */
export function lockAccountSubUser(db: Db, accountId: string, id: number, mode: 'update' | 'share' = 'update'): Promise<SubUser | undefined> {
  const q = db.selectFrom('sub_users').selectAll()
    .where('account_id', '=', accountId).where('id', '=', id).where('deleted_at', 'is', null);
  return (mode === 'update' ? q.forUpdate() : q.forShare()).executeTakeFirst();
}

export async function listSubUsersPage(db: Db, accountId: string, status: SubUserStatus | undefined, limit: number, offset: number): Promise<{ rows: SubUser[]; total: number }> {
  let q = db.selectFrom('sub_users').where('account_id', '=', accountId).where('deleted_at', 'is', null);
  if (status !== undefined) q = q.where('status', '=', status);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export interface SubUserPatch {
  first_name?: string;
  last_name?: string;
  phone?: string;
  phone_country_code?: string;
  status?: SubUserStatus;
  permissions?: string[];
}

export function updateSubUserRow(db: Db, id: number, patch: SubUserPatch, at: Date): Promise<SubUser | undefined> {
  return db.updateTable('sub_users').set({ ...patch, updated_at: at })
    .where('id', '=', id).where('deleted_at', 'is', null)
    .returningAll().executeTakeFirst();
}

/** Soft delete: out of every list, its email free again, every permission gone. */
export function markSubUserDeleted(db: Db, id: number, at: Date): Promise<SubUser | undefined> {
  return db.updateTable('sub_users').set({ deleted_at: at, updated_at: at, permissions: [] })
    .where('id', '=', id).where('deleted_at', 'is', null)
    .returningAll().executeTakeFirst();
}
