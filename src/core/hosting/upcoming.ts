// What recurring billing will charge for web hosting (the hosting family's RecurringCharges,
// src/core/billing/upcoming.ts): each account's cycle at its price.
import { accountHostingForBilling } from '../../db/queries/billing.ts';
import { findAccountWebHosting } from '../../db/queries/web-hosting.ts';
import { periodEnd } from '../billing/periods.ts';
import { type RecurringCharges, type UpcomingCharge, periodsUntil } from '../billing/upcoming.ts';
import { hostingPass } from './billing.ts';

export const hostingCharges: RecurringCharges = {
  pass: hostingPass,
  async upcoming(ctx, { until, overdue }) {
    const hosting = await accountHostingForBilling(ctx.db, ctx.accountId);
    const charges: UpcomingCharge[] = [];
    for (const h of hosting) {
      if (overdue.has(`web_hosting/${h.id}`)) continue;
      for (const [start, end] of periodsUntil(h.next_billing_at, until, (d) => periodEnd(d, h.billing_cycle, h.created_at))) {
        charges.push({
          resourceType: 'web_hosting', resourceId: h.id, name: h.domain, description: `Web hosting ${h.domain} (${h.id}): ${h.billing_cycle} cycle`,
          amountCents: h.price_cents, dueAt: start, periodStart: start, periodEnd: end, status: 'scheduled',
        });
      }
    }
    return { names: hosting.map((h) => [`web_hosting/${h.id}`, h.domain] as const), charges };
  },
  async next(ctx, id) {
    const h = await findAccountWebHosting(ctx.db, ctx.accountId, id);
    if (!h || (h.status !== 'active' && h.status !== 'suspended')) return null;
    return {
      resourceType: 'web_hosting', resourceId: id, name: '', description: `Web hosting ${h.domain} (${id}): ${h.billing_cycle} cycle`, amountCents: h.price_cents,
      dueAt: h.next_billing_at, periodStart: h.next_billing_at, periodEnd: periodEnd(h.next_billing_at, h.billing_cycle, h.created_at), status: 'scheduled',
    };
  },
};
