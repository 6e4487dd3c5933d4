// POST /panel/api/sub-users: invites a sub-user (email, names, permissions): a pending sub-user, its
// panel login and a single-use link (72 h), also mailed; all or nothing. Needs sub_users:write, and a
// sub-user may not hand out a permission it lacks.
import { Type } from '@sinclair/typebox';
import { inviteSubUser } from '../../../core/panel/invitations.ts';
import { ALL_SCOPES } from '../../../core/types.ts';
import { ok } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses, ref } from '../../schemas.ts';
import { SubUserDetailSchema, subUserDetailView } from '../../v2/sub-users/presenters.ts';
import { type PanelDeps, identityOf, inviterName, panelUrl } from '../deps.ts';

const Invitation = Type.Object({
  sub_user: ref(SubUserDetailSchema),
  url: Type.String({ description: 'The single-use link (also mailed to the sub-user); valid 72 hours' }),
  expires_at: Type.String(),
});
export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/sub-users', {
    config: { auth: 'panel', area: 'sub_users' },
    schema: {
      body: Type.Object({
        email: Type.String({ maxLength: 1000 }),
        first_name: Type.String({ maxLength: 1000 }),
        last_name: Type.String({ maxLength: 1000 }),
        permissions: Type.Array(Type.String({ maxLength: 100 }), { maxItems: ALL_SCOPES.length * 2 }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(Invitation), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const identity = await identityOf(request, deps);
    const r = await inviteSubUser({ db: deps.db, accountId: caller.accountId, now: deps.now() }, request.body,
      { subUserId: caller.subUserId, scopes: caller.scopes }, panelUrl(deps), inviterName(identity));
    reply.code(201).header('Cache-Control', 'no-store');
    reply.header('Location', `${deps.config.publicUrl}/v2/sub-users/${r.subUser.id}`);
    return ok(request, { sub_user: subUserDetailView(r.subUser), url: r.url, expires_at: r.expiresAt.toISOString() });
  });
}
