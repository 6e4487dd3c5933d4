import type { Db } from '../connection.ts';
import type { Account, ApiKey } from '../schema.ts';

export function insertApiKey(db: Db, row: Omit<ApiKey, 'created_at' | 'last_used_at' | 'revoked_at'>): Promise<ApiKey> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The key and its account in one round trip: this runs on every authenticated request. */
export async function findKeyByHash(db: Db, hash: string): Promise<{ key: ApiKey; account: Pick<Account, 'id' | 'status'> } | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .selectAll('k')
    .select(['a.status as account_status'])
    .where('k.key_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { account_status, ...key } = row;
  return { key, account: { id: key.account_id, status: account_status } };
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
