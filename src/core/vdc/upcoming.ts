// What recurring billing will charge for the VDC pool (the VDC family's RecurringCharges,
// src/core/billing/upcoming.ts): its monthly price, once the account has one.
import { findPool } from '../../db/queries/vdc-pools.ts';
import { periodEnd } from '../billing/periods.ts';
import { type RecurringCharges, type UpcomingCharge, periodsUntil } from '../billing/upcoming.ts';
import { vdcPoolPass } from './billing.ts';

const POOL_NAME = 'VDC resource pool';

export const vdcPoolCharges: RecurringCharges = {
  pass: vdcPoolPass,
  async upcoming(ctx, { until, overdue }) {
    const pool = await findPool(ctx.db, ctx.accountId);
    const charges: UpcomingCharge[] = [];
    if (pool && pool.monthly_price_cents !== null && !overdue.has(`vdc_pool/${ctx.accountId}`)) {
      const anchor = pool.billing_anchor_at ?? pool.next_billing_at ?? ctx.now;
      for (const [start, end] of periodsUntil(pool.next_billing_at ?? ctx.now, until, (d) => periodEnd(d, 'monthly', anchor))) {
        charges.push({
          resourceType: 'vdc_pool', resourceId: ctx.accountId, name: POOL_NAME, description: 'VDC resource pool: monthly cycle',
          amountCents: pool.monthly_price_cents, dueAt: start, periodStart: start, periodEnd: end, status: 'scheduled',
        });
      }
    }
    // The pool's charges are the account's own (resource id: the account), named so even once it is gone.
    return { names: [[`vdc_pool/${ctx.accountId}`, POOL_NAME] as const], charges };
  },
};
