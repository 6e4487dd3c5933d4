// Every movement of money is one ledger row. The database applies the row to the balance in the
// same statement; a withdrawal is inserted only if the balance, read under the account's row lock,
// covers it — so concurrent charges serialise on the account row and never overdraw, and a CHECK
// backs that up. Call these inside the transaction of the thing being paid for.
import { ApiError, notFound } from '../errors.ts';
import { isCheckViolation, isForeignKeyViolation } from '../../db/refusals.ts';
import { findAccount } from '../../db/queries/accounts.ts';
import { balanceTotals, insertTransaction, listTransactionsPage } from '../../db/queries/transactions.ts';
import { inTransaction } from '../../db/transaction.ts';
import { afterCommit } from '../events.ts';
import type { Transaction, TransactionType } from '../../db/schema.ts';
import { type Cents, MAX_AMOUNT_CENTS, formatCents, parseAmount } from '../money.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';

export { MAX_AMOUNT_CENTS };

async function append(db: Db, accountId: string, type: TransactionType, cents: Cents, description: string, resource?: string): Promise<Transaction> {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents > MAX_AMOUNT_CENTS) {
    throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [
      { field: 'amount', code: 'INVALID', message: `must be a positive amount up to ${formatCents(MAX_AMOUNT_CENTS)}, such as "150.00"` },
    ]);
  }
  let row: Transaction | undefined;
  try {
    row = await insertTransaction(db, { account_id: accountId, type, amount_cents: cents, description });
  } catch (e) {
    // The CHECK backstop: the transaction is aborted, so the balance cannot be read for the message.
    if (isCheckViolation(e, 'balance_short')) {
      throw new ApiError('INSUFFICIENT_BALANCE', `The balance is less than the ${formatCents(cents)} USD this costs`);
    }
    if (isForeignKeyViolation(e)) throw notFound('Account');
    throw e;
  }
  if (row) {
    reportLedgerRow(db, { accountId, type, cents, description, resource, transactionId: row.id, balanceAfterCents: row.balance_after_cents });
    return row;
  }
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('Account');
  throw insufficient(account.balance_cents, cents);
}

/** Reports a ledger row once `db`'s work commits (at once outside a transaction): metrics, notifications. */
export function reportLedgerRow(db: Db, r: { accountId: string; type: TransactionType; cents: Cents; description: string; resource?: string; transactionId: number; balanceAfterCents: Cents }): void {
  afterCommit(db, { kind: 'billing', type: r.type, accountId: r.accountId, cents: r.cents, balanceAfterCents: r.balanceAfterCents, transactionId: r.transactionId, description: r.description, resource: r.resource ?? null });
}

/** "Balance 12.00 USD is less than the 25.00 USD this costs": both figures, so the client knows the top-up. */
export function insufficient(balanceCents: Cents, neededCents: Cents): ApiError {
  return new ApiError('INSUFFICIENT_BALANCE', `Balance ${formatCents(balanceCents)} USD is less than the ${formatCents(neededCents)} USD this costs`);
}

export function deposit(db: Db, accountId: string, cents: Cents, description: string): Promise<Transaction> {
  return append(db, accountId, 'deposit', cents, description);
}

/** An operator's top-up: a decimal amount ("150.00") as typed, in a transaction of its own. */
export function depositAmount(db: Db, accountId: string, amount: string, description = 'Deposit'): Promise<Transaction> {
  const cents = parseAmount(amount);
  if (cents === null) {
    throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [{ field: 'amount', code: 'INVALID', message: 'must be an amount such as "150.00"' }]);
  }
  return inTransaction(db, (trx) => deposit(trx, accountId, cents, description));
}

/**
 * Fails with INSUFFICIENT_BALANCE, writing nothing, when the balance does not cover `cents`; a
 * caller's transaction stays usable (nothing failed in the database), so it may go on.
 */
export function charge(db: Db, accountId: string, cents: Cents, description: string, resource?: string): Promise<Transaction> {
  return append(db, accountId, 'withdraw', cents, description, resource);
}

/** `resource`: what is refunded, as `type/id` (for logs and metrics; the description names it for people). */
export function refund(db: Db, accountId: string, cents: Cents, description: string, resource?: string): Promise<Transaction> {
  return append(db, accountId, 'refund', cents, description, resource);
}

export async function getBalance(db: Db, accountId: string): Promise<Cents> {
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('Account');
  return account.balance_cents;
}

export interface BalanceSummary {
  balanceCents: Cents;
  /** Deposits and refunds: everything that ever came in. */
  inCents: Cents;
  /** Withdrawals (charges). */
  outCents: Cents;
}

/** The balance with the ledger's totals (v1's /balance); balance = in − out, as the ledger trigger keeps it. */
export async function getBalanceSummary(db: Db, accountId: string): Promise<BalanceSummary> {
  const totals = await balanceTotals(db, accountId);
  if (!totals) throw notFound('Account');
  return { balanceCents: totals.balance, inCents: totals.inCents, outCents: totals.outCents };
}

export async function listTransactions(
  db: Db,
  accountId: string,
  filter: { type?: TransactionType },
  page: PageRequest,
): Promise<Paged<Transaction>> {
  const { rows, total } = await listTransactionsPage(db, accountId, filter.type, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
