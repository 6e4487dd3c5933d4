// A deposit made while a suspension is still being carried out (the power-off of a server, the
// panel's suspend of a hosting account) cannot resume the service: the billing pass leaves alone a
// service that an operation is changing, so the deposit's pass defers it. Once that operation has
// finished, the pass runs again for the account — at once, not at the next timed pass — so the
// service is paid and resumed within seconds of the deposit. It runs only when the balance now
// covers what the service owes; the pass's own locks and unique charges keep it to one charge and
// one resumption, however many passes meet. The suspensions are the billable types' own (their
// RecurringPass's `suspension`).
import type { Operation } from '../../db/schema.ts';
import { type BillingDeps, type PassReport, recurringPasses, runBillingPass } from './pass.ts';

/**
 * After operation `op` has finished (completed or failed): when it was a suspension and its service
 * can be resumed now, the account's pass; null when there was nothing to do.
 */
export async function settleAfterOperation(
  deps: BillingDeps, op: Pick<Operation, 'type' | 'account_id' | 'resource_id'>, now: Date, onError?: (e: unknown, what: string) => void,
): Promise<PassReport | null> {
  const suspension = recurringPasses().find(([, p]) => p.suspension?.operation === op.type)?.[1].suspension;
  if (!suspension || !(await suspension.resumableNow(deps.db, op.resource_id))) return null;
  return runBillingPass(deps, now, { accountId: op.account_id, onError });
}
