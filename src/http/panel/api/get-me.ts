// GET /panel/api/me: who is signed in (if anyone), what they may do, and the CSRF token for the
// page's writes. The page asks this first; it answers 200 signed in or not.
import { Type } from '@sinclair/typebox';
import { getAccount } from '../../../core/accounts/service.ts';
import { getAccountPool } from '../../../core/vdc/pool.ts';
import { ALL_SCOPES } from '../../../core/types.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import { Nullable } from '../schemas.ts';
import { csrfToken } from '../csrf.ts';
import type { PanelDeps } from '../deps.ts';
import { sessionOf, sessionScopes } from '../session-auth.ts';

const Me = Type.Object({
  signed_in: Type.Boolean({ description: 'true once the password (and the code, with two-factor on) was accepted' }),
  stage: Nullable(StringEnum(['totp', 'full'] as const)),
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token with every write' }),
  sign_up_open: Type.Boolean(),
  user: Nullable(Type.Object({
    email: Type.String(),
    role: StringEnum(['owner', 'sub_user'] as const),
    sub_user_id: Nullable(Type.Integer()),
    two_factor: Type.Boolean(),
    permissions: Type.Array(Type.String(), { description: 'The scopes this person holds: every scope for the owner' }),
  })),
  account: Nullable(Type.Object({
    id: Type.String(), name: Type.String(), status: Type.String(),
    has_vdc_pool: Type.Boolean({ description: 'The operator gave this account a VDC pool: the navigation shows VDC only then' }),
  })),
  session: Nullable(Type.Object({ id: Type.String(), expires_at: Type.String() })),
  impersonation: Nullable(Type.Object({
    staff_name: Type.String({ description: 'The staff member signed in as the customer' }),
    reason: Type.String(),
    read_only: Type.Boolean(),
  }, { description: 'A staff member signed in as the customer: the page shows a banner with "End" (DELETE /panel/api/session)' })),
});

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/me', {
    config: { auth: 'panel-open' },
    schema: { response: { 200: Envelope(Me), ...errorResponses() } },
  }, async (request, reply) => {
    const identity = await sessionOf(request, deps.db, deps.sessions, deps.now());
    const csrf = csrfToken(request, reply, deps.config.publicUrl, identity?.publicId ?? null);
    reply.header('Cache-Control', 'no-store');
    const base = { csrf_token: csrf, sign_up_open: deps.config.panelSignup === 'open' };
    let scopes: readonly string[] | null = null;
    let usable = identity !== null;
    try {
      if (identity) scopes = sessionScopes(identity);
    } catch {
      usable = false;
    }
    if (!identity || !usable) return ok(request, { ...base, signed_in: false, stage: null, user: null, account: null, session: null, impersonation: null });
    const [account, pool] = await Promise.all([getAccount(deps.db, identity.accountId), getAccountPool(deps.db, identity.accountId)]);
    return ok(request, {
      ...base,
      signed_in: identity.stage === 'full',
      stage: identity.stage,
      user: {
        email: identity.email,
        role: identity.subUser ? 'sub_user' as const : 'owner' as const,
        sub_user_id: identity.subUser?.id ?? null,
        two_factor: identity.totpEnabled,
        permissions: [...(scopes ?? ALL_SCOPES)],
      },
      account: identity.stage === 'full' ? { id: account.id, name: account.name, status: account.status, has_vdc_pool: pool.hasPool } : null,
      session: { id: identity.publicId, expires_at: identity.expiresAt.toISOString() },
      impersonation: identity.impersonation
        ? { staff_name: identity.impersonation.staffName, reason: identity.impersonation.reason, read_only: identity.impersonation.readOnly }
        : null,
    });
  });
}
