// What the payment services need from their caller: the database, the payment provider and what
// the billing pass after a credit needs, the top-up limits, the clock, and where to report
// failures that must not fail the request (the settlement after a credit).
import type { Services } from '../context.ts';
import type { BillingSettings } from '../billing/deps.ts';
import type { Db } from '../types.ts';

export interface PaymentDeps {
  db: Db;
  services: Services;
  billing: BillingSettings;
  /** TOPUP_MIN / TOPUP_MAX, in cents. */
  topup: { minCents: number; maxCents: number };
  /** PUBLIC_URL: a top-up's return address must be under it. */
  publicUrl: string;
  now: () => Date;
  onError: (e: unknown, what: string) => void;
}
