// The monthly statement of an account: the ledger of one calendar month (UTC) — deposits, refunds
// and charges — between its opening balance (everything before the month) and its closing balance
// (the opening one plus the month's rows), so it agrees with the ledger: a month closes on what the
// next one opens with, and the current month closes on the balance (when nothing came after).
import { findAccount } from '../../db/queries/accounts.ts';
import { ledgerBefore, ledgerBetween } from '../../db/queries/statements.ts';
import type { TransactionType } from '../../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
import type { Cents } from '../money.ts';
import type { Db } from '../types.ts';
import { type BillingActor, requireBilling } from './access.ts';

export interface StatementLine {
  transactionId: number;
  at: Date;
  type: TransactionType;
  description: string;
  /** Signed: a charge is negative. */
  amountCents: Cents;
  /** The balance after this line, running from the opening balance. */
  balanceCents: Cents;
}

export interface Statement {
  accountId: string;
  account: { name: string; email: string; company: string | null };
  /** "2026-03". */
  month: string;
  from: Date;
  /** The first instant after the month. */
  to: Date;
  openingCents: Cents;
  closingCents: Cents;
  depositsCents: Cents;
  refundsCents: Cents;
  chargesCents: Cents;
  lines: StatementLine[];
}

/** "2026-03" → the month's bounds; not after the month of `now`. */
export function monthBounds(text: string, now: Date): { from: Date; to: Date } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text);
  if (!m) throw invalid('month', 'must be a month such as 2026-03');
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  if (year < 2000) throw invalid('month', 'must be a month such as 2026-03');
  const from = new Date(Date.UTC(year, month, 1));
  if (from.getTime() > Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) throw invalid('month', 'must not be after the current month');
  return { from, to: new Date(Date.UTC(year, month + 1, 1)) };
}

export async function monthlyStatement(db: Db, accountId: string, month: string, now: Date): Promise<Statement> {
  const { from, to } = monthBounds(month, now);
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('Account');
  const [opening, rows] = await Promise.all([ledgerBefore(db, accountId, from), ledgerBetween(db, accountId, from, to)]);
  let balance = opening;
  const sums = { deposit: 0, refund: 0, withdraw: 0 };
  const lines = rows.map((t): StatementLine => {
    const signed = t.type === 'withdraw' ? -t.amount_cents : t.amount_cents;
    balance += signed;
    sums[t.type] += t.amount_cents;
    return { transactionId: t.id, at: t.created_at, type: t.type, description: t.description, amountCents: signed, balanceCents: balance };
  });
  return {
    accountId, account: { name: account.name, email: account.email, company: account.company }, month, from, to,
    openingCents: opening, closingCents: balance, depositsCents: sums.deposit, refundsCents: sums.refund, chargesCents: sums.withdraw, lines,
  };
}

/**
 * The months a statement can be asked for, newest first: from the month the account was opened to
 * the month of `now` (UTC), never before 2000 (monthBounds refuses those). An account opened
 * "after" now (a clock set back) still has the current month.
 */
export function statementMonths(openedAt: Date, now: Date): string[] {
  const first = Math.max(openedAt.getUTCFullYear() * 12 + openedAt.getUTCMonth(), 2000 * 12);
  const months: string[] = [];
  for (let m = now.getUTCFullYear() * 12 + now.getUTCMonth(); months.length === 0 || m >= first; m--) {
    months.push(`${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`);
  }
  return months;
}

/** The months of the account's life, for its statements (billing:read). */
export async function ownStatementMonths(db: Db, actor: BillingActor, now: Date): Promise<string[]> {
  requireBilling(actor, 'read');
  const account = await findAccount(db, actor.accountId);
  if (!account) throw notFound('Account');
  return statementMonths(account.created_at, now);
}

/** A customer's statement: the account's own, with billing:read. */
export function ownStatement(db: Db, actor: BillingActor, month: string, now: Date): Promise<Statement> {
  requireBilling(actor, 'read');
  return monthlyStatement(db, actor.accountId, month, now);
}
