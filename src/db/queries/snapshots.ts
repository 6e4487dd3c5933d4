import type { Db } from '../connection.ts';
import type { Snapshot } from '../schema.ts';

/** A snapshot of the account's (not deleted). */
export function findAccountSnapshot(db: Db, accountId: string, id: number): Promise<Snapshot | undefined> {
  return db.selectFrom('snapshots').selectAll()
    .where('id', '=', id).where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .executeTakeFirst();
}
