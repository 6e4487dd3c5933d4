import type { Db } from './connection.ts';

/**
 * Runs `fn` in a transaction, or inside the one `db` already is (the sandbox hands the core a
 * transaction that is rolled back at the end, and nested work must join it).
 */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}
