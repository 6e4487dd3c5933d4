// Who tops up and reads invoices at /panel/api/billing (panel-billing/): the panel's signed-in
// session — its account, and a sub-user's permissions — with the CSRF token on every write, as on
// the panel's other routes. The billing core checks billing:read / billing:write itself.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { BillingActor } from '../../core/payments/access.ts';
import type { SessionSettings } from '../../core/panel/sessions.ts';
import type { Db } from '../../core/types.ts';
import { checkCsrf, isWrite } from './csrf.ts';
import { refuseImpersonatedWrite, sessionCaller, sessionOf } from './session-auth.ts';

/** Where the panel's billing routes live. */
export const PANEL_BILLING_PREFIX = '/panel/api/billing';

export function sessionBillingActor(db: Db, settings: SessionSettings, now: () => Date) {
  return async (request: FastifyRequest): Promise<BillingActor> => {
    const identity = await sessionOf(request, db, settings, now());
    if (!identity) throw new ApiError('AUTH_REQUIRED', 'Sign in to the panel first');
    if (isWrite(request)) {
      checkCsrf(request, identity.publicId);
      // These routes skip the auth hook's panel branch: the same check of a staff member's session.
      refuseImpersonatedWrite(identity, undefined);
    }
    const caller = sessionCaller(identity);
    return { accountId: caller.accountId, subUserId: caller.subUserId, permissions: caller.scopes };
  };
}
