// What recurring billing will charge for domains (the domains family's RecurringCharges,
// src/core/billing/upcoming.ts): the auto-renewal of each, DOMAIN_RENEW_DAYS before it expires.
import { accountDomainsForBilling } from '../../db/queries/billing.ts';
import { findTldPrices } from '../../db/queries/catalog.ts';
import { findAccountDomain } from '../../db/queries/domains.ts';
import { addDays } from '../billing/periods.ts';
import type { RecurringCharges, UpcomingCharge } from '../billing/upcoming.ts';
import { addYears } from './rules.ts';
import { domainPass } from './billing.ts';

export const domainCharges: RecurringCharges = {
  pass: domainPass,
  async upcoming(ctx, { until, overdue, domainRenewDays }) {
    const domains = await accountDomainsForBilling(ctx.db, ctx.accountId);
    const charges: UpcomingCharge[] = [];
    const prices = domains.length ? await findTldPrices(ctx.db, [...new Set(domains.map((d) => d.tld))]) : [];
    for (const d of domains) {
      if (!d.expires_at || overdue.has(`domain/${d.id}`)) continue;
      const renewAt = addDays(d.expires_at, -domainRenewDays);
      if (renewAt.getTime() > until.getTime()) continue;
      const cents = prices.find((p) => p.tld === d.tld)?.renewal_cents ?? 0;
      charges.push({
        resourceType: 'domain', resourceId: d.id, name: d.name, description: `Domain ${d.name} (${d.service_id}): auto-renewal for 1 year`,
        amountCents: cents, dueAt: renewAt.getTime() < ctx.now.getTime() ? ctx.now : renewAt, periodStart: d.expires_at, periodEnd: addYears(d.expires_at, 1), status: 'scheduled',
      });
    }
    return { names: domains.map((d) => [`domain/${d.id}`, d.name] as const), charges };
  },
  async next(ctx, id, domainRenewDays) {
    const d = await findAccountDomain(ctx.db, ctx.accountId, id);
    if (!d || d.status !== 'active' || !d.auto_renew || !d.expires_at) return null;
    const [price] = await findTldPrices(ctx.db, [d.tld]);
    const renewAt = addDays(d.expires_at, -domainRenewDays);
    return {
      resourceType: 'domain', resourceId: id, name: '', description: `Domain ${d.name} (${d.service_id}): auto-renewal for 1 year`, amountCents: price?.renewal_cents ?? 0,
      dueAt: renewAt.getTime() < ctx.now.getTime() ? ctx.now : renewAt, periodStart: d.expires_at, periodEnd: addYears(d.expires_at, 1), status: 'scheduled',
    };
  },
};
