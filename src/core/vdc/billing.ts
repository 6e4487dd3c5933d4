// The VDC pool in the billing pass (the VDC family's RecurringPass): a pool with an operator-set
// monthly price is billed monthly from the first pass after the price is set; unpaid stays due (its
// VMs keep running).
import { advancePoolPeriod, claimCharge, duePools, lockPoolRow } from '../../db/queries/billing.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { BillingDeps, PassReport, RecurringPass } from '../billing/deps.ts';
import { noticeChargeFailed } from '../billing/lifecycle.ts';
import { balanceOf, freshAttempt, pay } from '../billing/pay.ts';
import { periodEnd, periodLabel } from '../billing/periods.ts';
import { formatCents } from '../money.ts';

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
    const fresh = freshAttempt(due, now);
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

export const vdcPoolPass: RecurringPass = {
  async billDue(deps, now, guarded, accountId) {
    for (const p of await duePools(deps.db, now, accountId)) await guarded(`vdc_pool/${p.id}`, (r) => billPool(deps, now, p.id, r));
  },
  retryDue: billPool,
  resumePaid: null,
};
