// The billing family: the ledger, deposits and recurring charges (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const billingFamily = {
  name: 'billing',
  area: 'billing',
  events: ['billing.deposit', 'billing.charge_succeeded', 'billing.refunded', 'billing.charge_failed'],
} as const satisfies FamilyManifest;
