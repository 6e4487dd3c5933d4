// Who acts on an account's billing: its owner (every permission) or a sub-user (its permissions,
// the scope names). The panel's session names the actor; the operator acts through the admin API
// and needs none of this.
import { ApiError } from '../errors.ts';
import type { Access, Scope } from '../types.ts';

export interface BillingActor {
  accountId: string;
  /** The sub-user acting, or null for the account's owner. */
  subUserId: number | null;
  /** null = every permission (the owner); else the scopes a sub-user holds. */
  permissions: readonly Scope[] | null;
}

/** Reading invoices, statements and payments needs `billing:read`; topping up needs `billing:write`. */
export function requireBilling(actor: BillingActor, access: Access): void {
  if (actor.permissions === null || actor.permissions.includes(`billing:${access}`)) return;
  throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `This needs the billing:${access} permission`);
}
