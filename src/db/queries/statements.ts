// The ledger of one calendar month: the balance before it (the signed sum of every earlier row),
// and its rows. Sums do not depend on the order in which concurrent rows committed, so a month's
// closing balance is always the next month's opening one.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Transaction } from '../schema.ts';

export async function ledgerBefore(db: Db, accountId: string, before: Date): Promise<number> {
  const r = await sql<{ sum: string }>`
    SELECT COALESCE(SUM(CASE WHEN type = 'withdraw' THEN -amount_cents ELSE amount_cents END), 0) AS sum
      FROM transactions WHERE account_id = ${accountId} AND created_at < ${before}`.execute(db);
  return Number(r.rows[0]!.sum);
}

export function ledgerBetween(db: Db, accountId: string, from: Date, to: Date): Promise<Transaction[]> {
  return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId)
    .where('created_at', '>=', from).where('created_at', '<', to).orderBy('created_at').orderBy('id').execute();
}
