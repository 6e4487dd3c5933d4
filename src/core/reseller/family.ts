// The reseller family: tiers and discounts of accounts that resell (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const resellerFamily = { name: 'reseller', area: 'reseller' } as const satisfies FamilyManifest;
