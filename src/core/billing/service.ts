// The billing pass as the adapters start it (admin API, CLI through it, deposits and paid
// top-ups) and the operator's overdue list.
import { listOverdueAccounts, type OverdueRow } from '../../db/queries/billing.ts';
import type { Services } from '../context.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type BillingSettings, type PassReport, runBillingPass } from './pass.ts';

export function runPass(db: Db, services: Services, settings: BillingSettings, now: Date, accountId?: string, onError?: (e: unknown, what: string) => void): Promise<PassReport> {
  return runBillingPass({ ...services, ...settings, db }, now, { accountId, onError });
}

/**
 * What money coming in (an operator's deposit, a paid top-up) sets off: what the account owes is
 * paid at once, oldest first, and the services it paid for resume. Best effort and never throws:
 * the money has committed, so a failure here must not make anyone retry it; it is reported through
 * `onError` and the worker's next pass does the same work.
 */
export async function settleAfterDeposit(db: Db, services: Services, settings: BillingSettings, now: Date, accountId: string, onError: (e: unknown, what: string) => void): Promise<void> {
  await runPass(db, services, settings, now, accountId, onError).catch((e: unknown) => onError(e, `account/${accountId}`));
}

export async function listOverdue(db: Db, page: PageRequest): Promise<Paged<OverdueRow>> {
  const { rows, total } = await listOverdueAccounts(db, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
