import type { Db } from '../connection.ts';
import type { Account, AccountUpdate, NewAccount } from '../schema.ts';

export function insertAccount(db: Db, row: NewAccount): Promise<Account> {
  return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findAccount(db: Db, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function updateAccountRow(db: Db, id: string, patch: AccountUpdate): Promise<Account | undefined> {
  return db.updateTable('accounts').set({ ...patch, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}
