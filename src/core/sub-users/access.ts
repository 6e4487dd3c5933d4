// What a sub-user's API key may do, as one pure rule: authentication applies it to the row it
// reads (key, account and sub-user in one join), and so could a cache of those rows.
import { ALL_SCOPES, type Scope } from '../types.ts';

export type SubUserStatus = 'pending' | 'active' | 'inactive';

/** The part of a sub-user that decides what its keys may do. */
export interface SubUserGrant {
  id: number;
  status: SubUserStatus;
  /** Scope names (unknown ones, should any exist, grant nothing). */
  permissions: readonly string[];
  deleted: boolean;
}

export type SubUserAccess =
  | { allowed: true; scopes: Scope[] | null }
  | { allowed: false; reason: string };

/**
 * A key acts with its own scopes (null = every scope); a sub-user's key with the intersection of
 * those and the sub-user's permissions, and with nothing at all while the sub-user is not active.
 * (A deleted sub-user's keys are revoked with it; authentication treats them as revoked.)
 */
export function subUserAccess(keyScopes: readonly Scope[] | null, subUser: SubUserGrant | null): SubUserAccess {
  if (subUser === null) return { allowed: true, scopes: keyScopes === null ? null : [...keyScopes] };
  if (subUser.deleted) return { allowed: false, reason: `sub-user ${subUser.id} was deleted` };
  if (subUser.status !== 'active') return { allowed: false, reason: `sub-user ${subUser.id} is ${subUser.status}` };
  const granted = new Set(subUser.permissions);
  const held = keyScopes ?? ALL_SCOPES;
  return { allowed: true, scopes: ALL_SCOPES.filter((s) => granted.has(s) && held.includes(s)) };
}
