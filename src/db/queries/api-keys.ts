import type { Db } from '../connection.ts';
import type { Account, ApiKey, SubUserStatus } from '../schema.ts';

export function insertApiKey(db: Db, row: Omit<ApiKey, 'created_at' | 'last_used_at' | 'revoked_at' | 'sub_user_id'> & { sub_user_id?: number | null }): Promise<ApiKey> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export interface KeySubUser {
  id: number;
  status: SubUserStatus;
  permissions: string[];
  deleted_at: Date | null;
}

/**
 * The key, its account and its sub-user (if any) in one round trip: this runs on every
 * authenticated request.
 */
export async function findKeyByHash(db: Db, hash: string): Promise<{ key: ApiKey; account: Pick<Account, 'id' | 'status'>; subUser: KeySubUser | null } | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .leftJoin('sub_users as su', 'su.id', 'k.sub_user_id')
    .selectAll('k')
    .select(['a.status as account_status', 'su.status as su_status', 'su.permissions as su_permissions', 'su.deleted_at as su_deleted_at'])
    .where('k.key_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { account_status, su_status, su_permissions, su_deleted_at, ...key } = row;
  const subUser = key.sub_user_id === null || su_status === null
    ? null
    : { id: key.sub_user_id, status: su_status, permissions: su_permissions ?? [], deleted_at: su_deleted_at };
  return { key, account: { id: key.account_id, status: account_status }, subUser };
}

export function findApiKey(db: Db, id: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listAccountKeysPage(db: Db, accountId: string, limit: number, offset: number): Promise<{ rows: ApiKey[]; total: number }> {
  const q = db.selectFrom('api_keys').where('account_id', '=', accountId);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'asc').orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function listSubUserKeysPage(db: Db, accountId: string, subUserId: number, limit: number, offset: number): Promise<{ rows: ApiKey[]; total: number }> {
  const q = db.selectFrom('api_keys').where('account_id', '=', accountId).where('sub_user_id', '=', subUserId);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'asc').orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Revokes a key of this account (and of this sub-user, unless null); undefined when there is none. */
export function revokeAccountKeyRow(db: Db, accountId: string, subUserId: number | null, id: string, at: Date): Promise<ApiKey | undefined> {
  let q = db.updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('id', '=', id).where('account_id', '=', accountId);
  if (subUserId !== null) q = q.where('sub_user_id', '=', subUserId);
  return q.returningAll().executeTakeFirst();
}

export function revokeApiKeyRow(db: Db, id: string): Promise<ApiKey | undefined> {
  return db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(new Date())) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function touchApiKey(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Revokes every live key of a sub-user (it was deleted); returns how many. */
export async function revokeSubUserKeys(db: Db, accountId: string, subUserId: number, at: Date): Promise<number> {
  const r = await db.updateTable('api_keys').set({ revoked_at: at })
    .where('account_id', '=', accountId).where('sub_user_id', '=', subUserId).where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Revokes every live key of the account, its sub-users' too (a password reset that asks it); returns how many. */
export async function revokeAccountKeys(db: Db, accountId: string, at: Date): Promise<number> {
  const r = await db.updateTable('api_keys').set({ revoked_at: at })
    .where('account_id', '=', accountId).where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
