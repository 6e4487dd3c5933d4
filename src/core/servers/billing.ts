// Servers in the billing pass (the servers family's RecurringPass): each monthly period charged at
// its end with the snapshots' fees and the reseller discount, in a transaction that locks the
// server's row; unpaid, the server is suspended, and cancelled once the grace period is over.
import { advanceServerPeriod, claimCharge, dueServers, lockServerRow, paidSuspended, resumableNow, snapshotFeesCents, voidDueCharges } from '../../db/queries/billing.ts';
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type BillingDeps, type PassReport, type RecurringPass, ctxFor } from '../billing/deps.ts';
import { cancelServer, resumeServer, suspendServer } from '../billing/lifecycle.ts';
import { balanceOf, freshAttempt, graceOver, pay } from '../billing/pay.ts';
import { periodEnd, periodLabel } from '../billing/periods.ts';
import { formatCents } from '../money.ts';
import { discountOf } from '../reseller/discount.ts';
import { quoteServerCharge } from './charge.ts';

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
    if (await pay(trx, due, `server/${id}`, now, freshAttempt(due, now))) {
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

export const serverPass: RecurringPass = {
  async billDue(deps, now, guarded, accountId) {
    for (const s of await dueServers(deps.db, now, accountId)) await guarded(`server/${s.id}`, (r) => billServer(deps, now, s.id, r));
  },
  retryDue: billServer,
  async resumePaid(deps, now, r, accountId) {
    for (const s of await paidSuspended(deps.db, 'server', accountId)) {
      await inTransaction(deps.db, async (trx) => {
        const row = await lockServerRow(trx, s.id);
        if (row?.status === 'suspended' && !row.deleted_at && row.next_billing_at.getTime() > now.getTime() && await resumeServer(ctxFor(deps, s.account_id, now), trx, row)) r.resumed++;
      });
    }
  },
  suspension: { operation: 'server.suspend', resumableNow: (db, id) => resumableNow(db, 'server', id) },
};
