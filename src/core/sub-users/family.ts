// The sub-users family: people acting for an account with some of its scopes (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const subUsersFamily = { name: 'sub-users', area: 'sub_users' } as const satisfies FamilyManifest;
