// Who makes an admin request: the installation's ADMIN_TOKEN (the bootstrap owner), or a staff
// member through one of its tokens or a console session. The audit log names it as its actor.
import type { StaffRole } from '../../db/schema.ts';
import { ApiError } from '../errors.ts';

export interface StaffPrincipal {
  type: 'staff' | 'admin_token';
  /** The member's id; null for ADMIN_TOKEN. */
  id: string | null;
  email: string | null;
  role: StaffRole;
  via: 'admin_token' | 'token' | 'session';
}

export const ADMIN_TOKEN_PRINCIPAL: StaffPrincipal = Object.freeze({ type: 'admin_token', id: null, email: null, role: 'owner', via: 'admin_token' });

/** What a member does to itself, an owner (or ADMIN_TOKEN) does to anyone; another member is 403. */
export function mayActOn(actor: StaffPrincipal, staffId: string): void {
  if (actor.role !== 'owner' && actor.id !== staffId) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', 'Only an owner acts on another staff member\'s sessions and tokens');
  }
}
