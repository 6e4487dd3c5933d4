// Web hosting in the billing pass (the hosting family's RecurringPass): each period of the
// account's cycle charged at its end, in a transaction that locks its row; unpaid, the account is
// suspended at the panel, and cancelled once the grace period is over.
import { advanceWebHostingPeriod, claimCharge, dueWebHosting, lockWebHostingRow, paidSuspended, resumableNow, voidDueCharges } from '../../db/queries/billing.ts';
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type BillingDeps, type PassReport, type RecurringPass, ctxFor } from '../billing/deps.ts';
import { cancelHostingUnpaid, resumeHosting, suspendHosting } from '../billing/lifecycle.ts';
import { balanceOf, freshAttempt, graceOver, pay } from '../billing/pay.ts';
import { periodEnd, periodLabel } from '../billing/periods.ts';
import { formatCents } from '../money.ts';

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
    if (await pay(trx, due, `web_hosting/${id}`, now, freshAttempt(due, now))) {
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

export const hostingPass: RecurringPass = {
  async billDue(deps, now, guarded, accountId) {
    for (const h of await dueWebHosting(deps.db, now, accountId)) await guarded(`web_hosting/${h.id}`, (r) => billWebHosting(deps, now, h.id, r));
  },
  retryDue: billWebHosting,
  async resumePaid(deps, now, r, accountId) {
    for (const h of await paidSuspended(deps.db, 'web_hosting', accountId)) {
      await inTransaction(deps.db, async (trx) => {
        const row = await lockWebHostingRow(trx, h.id);
        if (row?.status === 'suspended' && row.next_billing_at.getTime() > now.getTime() && await resumeHosting(ctxFor(deps, h.account_id, now), trx, row)) r.resumed++;
      });
    }
  },
  suspension: { operation: 'hosting.suspend', resumableNow: (db, id) => resumableNow(db, 'web_hosting', id) },
};
