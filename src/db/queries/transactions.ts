import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Transaction, TransactionType } from '../schema.ts';

type NewRow = { account_id: string; type: TransactionType; amount_cents: number; description: string };

/**
 * Appends a ledger row; the trigger applies it to the balance. A withdrawal is conditional: it is
 * inserted only if the account's balance (read under a row lock, so concurrent charges queue and
 * each sees the balance the previous one left) covers it, and otherwise nothing is written and
 * undefined is returned. Refusing that way, rather than letting the CHECK fail, keeps a caller's
 * transaction usable (a bulk order may go on) and costs one round trip. The CHECK stays as the
 * backstop should any other write ever try to overdraw. The lock is NO KEY UPDATE, the one the
 * balance trigger takes anyway: FOR UPDATE would conflict with the KEY SHARE locks that rows
 * referencing the account (a new server) hold, and two such transactions would deadlock.
 */
export async function insertTransaction(db: Db, row: NewRow): Promise<Transaction | undefined> {
  if (row.type !== 'withdraw') return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
  const { rows } = await sql<Transaction>`
    INSERT INTO transactions (account_id, type, amount_cents, description)
    SELECT ${row.account_id}, 'withdraw', ${row.amount_cents}::bigint, ${row.description}
     WHERE (SELECT balance_cents FROM accounts WHERE id = ${row.account_id} FOR NO KEY UPDATE) >= ${row.amount_cents}::bigint
    RETURNING *`.execute(db);
  return rows[0];
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

/**
 * The balance and what came in (deposits and refunds) and went out (withdrawals) over the account's
 * whole ledger, read in one statement so the three agree with each other.
 */
export async function balanceTotals(db: Db, accountId: string): Promise<{ balance: number; inCents: number; outCents: number } | undefined> {
  const r = await sql<{ balance: string; in_cents: string; out_cents: string }>`
    SELECT a.balance_cents AS balance,
           COALESCE(SUM(t.amount_cents) FILTER (WHERE t.type <> 'withdraw'), 0) AS in_cents,
           COALESCE(SUM(t.amount_cents) FILTER (WHERE t.type = 'withdraw'), 0) AS out_cents
      FROM accounts a LEFT JOIN transactions t ON t.account_id = a.id
     WHERE a.id = ${accountId}
     GROUP BY a.id`.execute(db);
  const row = r.rows[0];
  return row && { balance: Number(row.balance), inCents: Number(row.in_cents), outCents: Number(row.out_cents) };
}

export function findTransaction(db: Db, id: number): Promise<Transaction | undefined> {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
}
