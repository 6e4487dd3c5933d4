import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Transaction, TransactionType } from '../schema.ts';

let savepoints = 0;

type NewRow = { account_id: string; type: TransactionType; amount_cents: number; description: string };

/**
 * Appends a ledger row; the trigger applies it to the balance (and the CHECK refuses an overdraft).
 * Inside a caller's transaction the insert runs under a savepoint: a refused row (overdraft) would
 * otherwise abort the whole transaction, and a caller that handles INSUFFICIENT_BALANCE and goes on
 * (bulk orders, partial success) could not write anything else.
 */
export async function insertTransaction(db: Db, row: NewRow): Promise<Transaction> {
  const insert = () => db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
  if (!db.isTransaction) return insert();
  // A name of its own: should two appends ever share a transaction concurrently, a reused name
  // could roll back the other one's row; a unique one at worst fails loudly.
  const savepoint = sql.id(`ledger_append_${++savepoints}`);
  await sql`SAVEPOINT ${savepoint}`.execute(db);
  try {
    const inserted = await insert();
    await sql`RELEASE SAVEPOINT ${savepoint}`.execute(db);
    return inserted;
  } catch (e) {
    // If even this fails the connection is gone; the insert's error is the one worth reporting.
    await sql`ROLLBACK TO SAVEPOINT ${savepoint}`.execute(db).catch(() => undefined);
    throw e;
  }
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
