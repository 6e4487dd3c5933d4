// What every billable type's pass step shares (src/core/<family>/billing.ts): paying a claimed
// period's charge through the ledger, the grace period, the balance a notice quotes.
import { findAccount } from '../../db/queries/accounts.ts';
import { markChargePaid, noteChargeUnpaid } from '../../db/queries/billing.ts';
import type { BillingCharge } from '../../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../types.ts';
import { charge } from './ledger.ts';
import { addDays } from './periods.ts';

/**
 * Pays a due row through the ledger in `trx`: true when paid, false when the balance does not
 * cover it (the transaction stays usable: the ledger writes nothing then).
 */
export async function pay(trx: Db, due: BillingCharge, resource: string, now: Date, fresh: boolean): Promise<boolean> {
  try {
    let txId: number | null = null;
    if (due.amount_cents > 0) txId = (await charge(trx, due.account_id, due.amount_cents, due.description, resource)).id;
    await markChargePaid(trx, due.id, txId, now);
    return true;
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'INSUFFICIENT_BALANCE') throw e;
    await noteChargeUnpaid(trx, due.id, e.message, fresh);
    return false;
  }
}

/** The row was claimed by this very attempt (a retried one counts its attempts). */
export const freshAttempt = (due: BillingCharge, now: Date) => due.due_since.getTime() === now.getTime() && due.attempts === 1;

/** A suspended service unpaid this long is cancelled. */
export const graceOver = (due: BillingCharge, now: Date, graceDays: number) => addDays(due.due_since, graceDays).getTime() <= now.getTime();

export async function balanceOf(trx: Db, accountId: string): Promise<number> {
  return (await findAccount(trx, accountId))?.balance_cents ?? 0;
}
