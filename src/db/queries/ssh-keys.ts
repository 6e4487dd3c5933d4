// The account's SSH public keys. The same key twice in one account is refused by the unique
// (account, fingerprint) constraint; an insert that meets it inserts nothing.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { SshKey, SshKeysTable } from '../schema.ts';

export type NewSshKey = Required<Pick<Insertable<SshKeysTable>, 'account_id' | 'name' | 'public_key' | 'key_type' | 'bits' | 'fingerprint' | 'created_at'>>;

/** The new key, or undefined when the account already has a key with this fingerprint. */
export function insertSshKey(db: Db, row: NewSshKey): Promise<SshKey | undefined> {
  return db.insertInto('ssh_keys').values(row)
    .onConflict((oc) => oc.constraint('ssh_keys_account_fingerprint').doNothing())
    .returningAll().executeTakeFirst();
}

export function findSshKeyByFingerprint(db: Db, accountId: string, fingerprint: string): Promise<SshKey | undefined> {
  return db.selectFrom('ssh_keys').selectAll().where('account_id', '=', accountId).where('fingerprint', '=', fingerprint).executeTakeFirst();
}

export async function listSshKeysPage(db: Db, accountId: string, limit: number, offset: number): Promise<{ rows: SshKey[]; total: number }> {
  const q = db.selectFrom('ssh_keys').where('account_id', '=', accountId);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** The account's keys among `ids` (another account's, or unknown ids, are simply not returned). */
export function findAccountSshKeys(db: Db, accountId: string, ids: number[]): Promise<SshKey[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('ssh_keys').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).orderBy('id').execute();
}

export function deleteSshKeyRow(db: Db, accountId: string, id: number): Promise<SshKey | undefined> {
  return db.deleteFrom('ssh_keys').where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
}
