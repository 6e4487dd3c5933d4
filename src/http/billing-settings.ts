// The billing pass's settings as a route reads them from the configuration (the admin routes that
// run a pass, and the payments' settlement after a credit).
import type { BillingSettings } from '../core/billing/deps.ts';
import type { RouteDeps } from './route-types.ts';

export function billingSettings(deps: Pick<RouteDeps, 'config'>): BillingSettings {
  return { graceDays: deps.config.suspendGraceDays, domainRenewDays: deps.config.domainRenewDays };
}
