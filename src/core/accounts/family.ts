// The account family: the customer's own account and API keys (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const accountsFamily = { name: 'accounts', area: 'account', idPrefix: 'acc' } as const satisfies FamilyManifest;
