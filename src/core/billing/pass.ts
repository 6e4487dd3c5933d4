// The billing pass: every service whose period has ended is charged for the next one, in a
// transaction of its own that locks the service's row, writes the period's charge row (unique per
// resource and period), pays it through the ledger and advances the period — so a pass run twice,
// in two workers at once, or cut off midway charges each period once and skips none. What the
// balance cannot cover stays `due`, suspends the service and is retried every pass; after
// SUSPEND_GRACE_DAYS the service is cancelled. A deposit runs the pass for its account at once.
// Each billable type's part is its family's (the manifest's `billable` hooks, RecurringPass:
// src/core/servers/billing.ts and its siblings), registered by src/core/families.ts: this file
// lists no family, and a billable type without its part does not compile.
import { listDueCharges } from '../../db/queries/billing.ts';
import { BILLABLE_TYPES, type BillableType } from '../../db/schema-billing.ts';
import { type BillingDeps, type Guarded, type PassReport, type RecurringPass, emptyReport } from './deps.ts';
import type { RecurringChargesByType } from './upcoming.ts';

export type { BillingDeps, BillingSettings, PassReport } from './deps.ts';

let registered: Readonly<Partial<Record<BillableType, RecurringPass>>> | null = null;

/** Sets every billable type's part of the pass (src/core/families.ts does, once, as it loads). */
export function registerRecurringBilling(hooks: RecurringChargesByType): void {
  registered = Object.fromEntries(Object.entries(hooks).map(([type, h]) => [type, h.pass]));
}

/** The registered parts, in BILLABLE_TYPES order; none registered means src/core/families.ts was never loaded. */
export function recurringPasses(): (readonly [BillableType, RecurringPass])[] {
  const hooks = registered;
  if (!hooks) throw new Error('no billable type is registered with the billing pass: load src/core/families.ts first');
  return BILLABLE_TYPES.flatMap((type) => (hooks[type] ? [[type, hooks[type]] as const] : []));
}

/**
 * One pass at `now` (from the caller's clock): every due service, or only `accountId`'s (a
 * deposit's pass, which pays what is due oldest first). One service failing does not stop the
 * others; it is counted as deferred, logged by `onError`, and retried by the next pass.
 */
export async function runBillingPass(deps: BillingDeps, now: Date, opts: { accountId?: string; onError?: (e: unknown, what: string) => void } = {}): Promise<PassReport> {
  const r = emptyReport();
  const { accountId } = opts;
  // Each service once per pass: one that is overdue is tried with the oldest debts first, not again later.
  const seen = new Set<string>();
  // Each step counts into a report of its own, added to the pass's only once the step succeeded:
  // a step counts inside its transaction, and a transaction that then fails (a deadlock with a
  // racing pass, a lost connection) committed nothing it counted.
  const guarded: Guarded = async (what, fn) => {
    if (seen.has(what)) return;
    seen.add(what);
    const step = emptyReport();
    try {
      await fn(step);
      for (const k of Object.keys(step) as (keyof PassReport)[]) r[k] += step[k];
    } catch (e) {
      r.deferred++;
      opts.onError?.(e, what);
    }
  };
  const passes = recurringPasses();
  const byType = new Map(passes);
  // What is owed already, oldest first, before any new period is charged.
  for (const due of await listDueCharges(deps.db, accountId)) {
    const step = byType.get(due.resource_type)?.retryDue;
    if (step) await guarded(`${due.resource_type}/${due.resource_id}`, (sr) => step(deps, now, due.resource_id, sr));
  }
  for (const [, p] of passes) await p.billDue(deps, now, guarded, accountId);
  for (const [type, p] of passes) {
    const resume = p.resumePaid;
    if (resume) await guarded(`resuming paid ${type}`, (sr) => resume(deps, now, sr, accountId));
  }
  return r;
}

