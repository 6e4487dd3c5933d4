// The billing pass: every service whose period has ended is charged for the next one, in a
// transaction of its own that locks the service's row, writes the period's charge row (unique per
// resource and period), pays it through the ledger and advances the period — so a pass run twice,
// in two workers at once, or cut off midway charges each period once and skips none. What the
// balance cannot cover stays `due`, suspends the service and is retried every pass; after
// SUSPEND_GRACE_DAYS the service is cancelled. A deposit runs the pass for its account at once.
import { findAccount } from '../../db/queries/accounts.ts';
import {
  advancePoolPeriod, advanceServerPeriod, advanceWebHostingPeriod, claimCharge, dueServers, duePools, dueWebHosting, listDueCharges,
  lockPoolRow, lockServerRow, lockWebHostingRow, markChargePaid, noteChargeUnpaid, paidSuspended, snapshotFeesCents, voidDueCharges,
} from '../../db/queries/billing.ts';
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import type { BillingCharge } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError } from '../errors.ts';
import { charge } from './ledger.ts';
import { formatCents } from '../money.ts';
import { discountOf } from '../reseller/discount.ts';
import { quoteServerCharge } from '../servers/charge.ts';
import type { Db } from '../types.ts';
import { billDomains } from './domains.ts';
import { cancelHostingUnpaid, cancelServer, noticeChargeFailed, resumeHosting, resumeServer, suspendHosting, suspendServer } from './lifecycle.ts';
import { addDays, periodEnd, periodLabel } from './periods.ts';
import { type BillingDeps, type Guarded, type PassReport, ctxFor, emptyReport } from './deps.ts';

export type { BillingDeps, BillingSettings, PassReport } from './deps.ts';

/**
 * Pays a due row through the ledger in `trx`: true when paid, false when the balance does not
 * cover it (the transaction stays usable: the ledger writes nothing then).
 */
async function pay(trx: Db, due: BillingCharge, resource: string, now: Date, fresh: boolean): Promise<boolean> {
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

const graceOver = (due: BillingCharge, now: Date, graceDays: number) => addDays(due.due_since, graceDays).getTime() <= now.getTime();

async function balanceOf(trx: Db, accountId: string): Promise<number> {
  return (await findAccount(trx, accountId))?.balance_cents ?? 0;
}

export async function billServer(deps: BillingDeps, now: Date, id: string, r: PassReport): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const s = await lockServerRow(trx, id);
    // Another pass holds it (it bills it), or it is gone.
    if (!s) return;
    // Deleted or cancelled meanwhile: nothing is owed for it any more.
    if (s.deleted_at || (s.status !== 'active' && s.status !== 'suspended')) return voidDueCharges(trx, 'server', id);
    // Another pass got here first: the period moved on.
    if (s.next_billing_at.getTime() > now.getTime()) return;
    // A resize, upgrade or power action is changing it: its price settles first; the next pass bills it.
    if (await findUnfinishedOperation(trx, 'server', id)) {
      r.deferred++;
      return;
    }
    const ctx = ctxFor(deps, s.account_id, now);
    const start = s.next_billing_at;
    const end = periodEnd(start, 'monthly', s.created_at);
    const fees = await snapshotFeesCents(trx, id);
    const quote = await quoteServerCharge(trx, {
      accountId: s.account_id, fromCents: 0, toCents: s.price_cents + fees, resource: `server/${id}`,
      description: `Server ${s.name} (${id}): monthly cycle ${periodLabel(start, end)}${fees > 0 ? ` (snapshots ${formatCents(fees)} USD)` : ''}`,
    });
    const due = await claimCharge(trx, {
      account_id: s.account_id, resource_type: 'server', resource_id: id, period_start: start, period_end: end,
      amount_cents: quote.chargedCents, description: quote.description, due_since: now,
    });
    if (due.status !== 'due') return;
    const fresh = due.due_since.getTime() === now.getTime() && due.attempts === 1;
    if (await pay(trx, due, `server/${id}`, now, fresh)) {
      r.charged++;
      r.charged_cents += due.amount_cents;
      // The discount the server now holds on its own price (a delete refunds what was paid).
      await advanceServerPeriod(trx, id, { start, end, discountCents: discountOf(s.price_cents, quote.discountBp), status: s.status });
      if (s.status === 'suspended' && await resumeServer(ctx, trx, { ...s, period_started_at: start, next_billing_at: end })) r.resumed++;
      return;
    }
    r.unpaid++;
    if (s.status === 'active') {
      await suspendServer(ctx, trx, s, due, await balanceOf(trx, s.account_id), deps.graceDays);
      r.suspended++;
      r.notices += 2;
    } else if (graceOver(due, now, deps.graceDays)) {
      await cancelServer(ctx, trx, s, due, deps.graceDays);
      r.cancelled++;
      r.notices++;
    }
  });
}

export async function billWebHosting(deps: BillingDeps, now: Date, id: string, r: PassReport): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const h = await lockWebHostingRow(trx, id);
    if (!h) return;
    if (h.status !== 'active' && h.status !== 'suspended') return voidDueCharges(trx, 'web_hosting', id);
    if (h.next_billing_at.getTime() > now.getTime()) return;
    if (await findUnfinishedOperation(trx, 'web_hosting', id)) {
      r.deferred++;
      return;
    }
    const ctx = ctxFor(deps, h.account_id, now);
    const start = h.next_billing_at;
    const end = periodEnd(start, h.billing_cycle, h.created_at);
    const due = await claimCharge(trx, {
      account_id: h.account_id, resource_type: 'web_hosting', resource_id: id, period_start: start, period_end: end, amount_cents: h.price_cents,
      description: `Web hosting ${h.domain} (${id}): ${h.billing_cycle} cycle ${periodLabel(start, end)}, ${formatCents(h.price_cents)} USD`, due_since: now,
    });
    if (due.status !== 'due') return;
    const fresh = due.due_since.getTime() === now.getTime() && due.attempts === 1;
    if (await pay(trx, due, `web_hosting/${id}`, now, fresh)) {
      r.charged++;
      r.charged_cents += due.amount_cents;
      await advanceWebHostingPeriod(trx, id, { start, end, chargedCents: due.amount_cents });
      if (h.status === 'suspended' && await resumeHosting(ctx, trx, h)) r.resumed++;
      return;
    }
    r.unpaid++;
    if (h.status === 'active') {
      await suspendHosting(ctx, trx, h, due, await balanceOf(trx, h.account_id), deps.graceDays);
      r.suspended++;
      r.notices += 2;
    } else if (graceOver(due, now, deps.graceDays)) {
      await cancelHostingUnpaid(ctx, trx, h, due, deps.graceDays);
      r.cancelled++;
      r.notices++;
    }
  });
}

/** A VDC pool with an operator-set monthly price: billed monthly from the first pass after the price is set; unpaid stays due (its VMs keep running). */
export async function billPool(deps: BillingDeps, now: Date, accountId: string, r: PassReport): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const p = await lockPoolRow(trx, accountId);
    if (!p || p.monthly_price_cents === null || (p.next_billing_at && p.next_billing_at.getTime() > now.getTime())) return;
    const anchor = p.billing_anchor_at ?? now;
    const start = p.next_billing_at ?? now;
    const end = periodEnd(start, 'monthly', anchor);
    const due = await claimCharge(trx, {
      account_id: accountId, resource_type: 'vdc_pool', resource_id: accountId, period_start: start, period_end: end, amount_cents: p.monthly_price_cents,
      description: `VDC resource pool (${accountId}): monthly cycle ${periodLabel(start, end)}, ${formatCents(p.monthly_price_cents)} USD`, due_since: now,
    });
    if (due.status !== 'due') return;
    const fresh = due.due_since.getTime() === now.getTime() && due.attempts === 1;
    if (await pay(trx, due, `vdc_pool/${accountId}`, now, fresh)) {
      r.charged++;
      r.charged_cents += due.amount_cents;
      await advancePoolPeriod(trx, accountId, { anchor, end });
      return;
    }
    r.unpaid++;
    // The period is fixed at its first attempt, so a later payment pays this very period.
    if (!p.next_billing_at) await advancePoolPeriod(trx, accountId, { anchor, end: start });
    if (fresh) {
      await noticeChargeFailed(trx, due, 'your VDC resource pool', await balanceOf(trx, accountId));
      r.notices++;
    }
  });
}

/** Suspended services whose charges were all paid (by a deposit) but that were not resumed yet. */
async function resumePaid(deps: BillingDeps, now: Date, r: PassReport, accountId?: string): Promise<void> {
  for (const s of await paidSuspended(deps.db, accountId)) {
    await inTransaction(deps.db, async (trx) => {
      const ctx = ctxFor(deps, s.account_id, now);
      if (s.resource_type === 'server') {
        const row = await lockServerRow(trx, s.id);
        if (row?.status === 'suspended' && !row.deleted_at && row.next_billing_at.getTime() > now.getTime() && await resumeServer(ctx, trx, row)) r.resumed++;
      } else {
        const row = await lockWebHostingRow(trx, s.id);
        if (row?.status === 'suspended' && row.next_billing_at.getTime() > now.getTime() && await resumeHosting(ctx, trx, row)) r.resumed++;
      }
    });
  }
}

type Step = (deps: BillingDeps, now: Date, id: string, r: PassReport) => Promise<void>;
const STEPS: Record<BillingCharge['resource_type'], Step | null> = { server: billServer, web_hosting: billWebHosting, vdc_pool: billPool, domain: null };

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
  // What is owed already, oldest first, before any new period is charged.
  for (const due of await listDueCharges(deps.db, accountId)) {
    const step = STEPS[due.resource_type];
    if (step) await guarded(`${due.resource_type}/${due.resource_id}`, (sr) => step(deps, now, due.resource_id, sr));
  }
  for (const s of await dueServers(deps.db, now, accountId)) await guarded(`server/${s.id}`, (sr) => billServer(deps, now, s.id, sr));
  for (const h of await dueWebHosting(deps.db, now, accountId)) await guarded(`web_hosting/${h.id}`, (sr) => billWebHosting(deps, now, h.id, sr));
  for (const p of await duePools(deps.db, now, accountId)) await guarded(`vdc_pool/${p.id}`, (sr) => billPool(deps, now, p.id, sr));
  await billDomains(deps, now, guarded, accountId);
  await guarded('resuming paid services', (sr) => resumePaid(deps, now, sr, accountId));
  return r;
}

