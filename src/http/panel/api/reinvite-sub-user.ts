// POST /panel/api/sub-users/:id/invitation: a new link for a sub-user that has not accepted its
// invitation (one the operator invited gets its panel login here). Needs sub_users:write and, for a
// sub-user, every permission the invited one holds (403); an active or inactive sub-user is 409.
import { Type } from '@sinclair/typebox';
import { reinviteSubUser } from '../../../core/panel/invitations.ts';
import { ok } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, IntId, errorResponses, ref } from '../../schemas.ts';
import { SubUserDetailSchema, subUserDetailView } from '../../v2/sub-users/presenters.ts';
import { type PanelDeps, identityOf, inviterName, panelUrl } from '../deps.ts';

const Invitation = Type.Object({
  sub_user: ref(SubUserDetailSchema),
  url: Type.String({ description: 'The single-use link (also mailed to the sub-user); valid 72 hours' }),
  expires_at: Type.String(),
});
export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/sub-users/:id/invitation', {
    config: { auth: 'panel', area: 'sub_users' },
    schema: {
      params: Type.Object({ id: IntId }),
      response: { 200: Envelope(Invitation), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'AUTH_SCOPE_INSUFFICIENT') },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const identity = await identityOf(request, deps);
    const r = await reinviteSubUser({ db: deps.db, accountId: caller.accountId, now: deps.now() }, request.params.id,
      { subUserId: caller.subUserId, scopes: caller.scopes }, panelUrl(deps), inviterName(identity));
    reply.header('Cache-Control', 'no-store');
    return ok(request, { sub_user: subUserDetailView(r.subUser), url: r.url, expires_at: r.expiresAt.toISOString() });
  });
}
