// Web hosting's pure rules: statuses, billing cycles and what a cycle costs.
import type { BillingCycle, HostingPackage, WebHostingStatus } from '../../db/schema.ts';
import { addMonth } from '../servers/rules.ts';

export const HOSTING_STATUSES = ['pending', 'active', 'suspended', 'cancelled'] as const satisfies readonly WebHostingStatus[];
export const BILLING_CYCLES = ['monthly', 'yearly'] as const satisfies readonly BillingCycle[];

/** Longest cancel `reason` kept. */
export const CANCEL_REASON_MAX = 500;

/**
 * One cycle's price. Yearly is the package's `yearly_price_cents`: the catalog stores the yearly
 * price itself — twelve months less the package's yearly discount, as the operator sets it — rather
 * than a discount rate to apply (3990 for a 399 package is 12 × 3.99 less about 17 %).
 */
export function cyclePriceCents(pkg: Pick<HostingPackage, 'monthly_price_cents' | 'yearly_price_cents'>, cycle: BillingCycle): number {
  return cycle === 'yearly' ? pkg.yearly_price_cents : pkg.monthly_price_cents;
}

/** A year on, 29 February becoming 28 February in a common year. */
export function addYear(from: Date): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The end of a cycle that starts at `from`. */
export function addCycle(from: Date, cycle: BillingCycle): Date {
  return cycle === 'yearly' ? addYear(from) : addMonth(from);
}
