import type { Db } from '../connection.ts';
import type { Transaction, TransactionType } from '../schema.ts';

/** Appends a ledger row; the trigger applies it to the balance (and the CHECK refuses an overdraft). */
export function insertTransaction(
  db: Db,
  row: { account_id: string; type: TransactionType; amount_cents: number; description: string },
): Promise<Transaction> {
  return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listTransactionsPage(
  db: Db,
  accountId: string,
  type: TransactionType | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: Transaction[]; total: number }> {
  let q = db.selectFrom('transactions').where('account_id', '=', accountId);
  if (type) q = q.where('type', '=', type);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function ledgerSumCents(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('transactions')
    .where('account_id', '=', accountId)
    .select((eb) =>
      eb.fn.coalesce(
        eb.fn.sum<number>(eb.case().when('type', '=', 'withdraw').then(eb.neg(eb.ref('amount_cents'))).else(eb.ref('amount_cents')).end()),
        eb.lit(0),
      ).as('sum'),
    )
    .executeTakeFirstOrThrow();
  return Number(r.sum);
}
