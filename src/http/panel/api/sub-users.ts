// Sub-user invitations (the one sub-user write v2 leaves to the panel) and the panel's list:
//   GET  /panel/api/sub-users                  every sub-user, with whether it can sign in here
//   POST /panel/api/sub-users                  invite: email, names, permissions → a pending sub-user and its link
//   POST /panel/api/sub-users/:id/invitation   a new link (one the operator invited gets its first)
// Editing, permissions, deactivating and deleting are v2's (PATCH, PUT …/permissions, DELETE
// /v2/sub-users/{id}), which the panel calls with its session. All need sub_users:* .
import { Type } from '@sinclair/typebox';
import { inviteSubUser, panelAccessOf, reinviteSubUser } from '../../../core/panel/invitations.ts';
import { listSubUsers } from '../../../core/sub-users/service.ts';
import { ALL_SCOPES } from '../../../core/types.ts';
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

const Listed = Type.Intersect([ref(SubUserDetailSchema), Type.Object({
  panel: Type.Object({ invited: Type.Boolean(), signed_up: Type.Boolean(), two_factor: Type.Boolean() }),
})]);

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/sub-users', {
    config: { auth: 'panel', area: 'sub_users' },
    schema: { response: { 200: Envelope(Type.Array(Listed)), ...errorResponses() } },
  }, async (request) => {
    const caller = callerOf(request);
    const { items } = await listSubUsers({ db: deps.db, accountId: caller.accountId }, undefined, { page: 1, perPage: 1000 });
    const access = await panelAccessOf(deps.db, caller.accountId, items.map((s) => s.id));
    return ok(request, items.map((s) => ({ ...subUserDetailView(s), panel: access.get(s.id) ?? { invited: false, signed_up: false, two_factor: false } })));
  });

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

  app.post('/api/sub-users/:id/invitation', {
    config: { auth: 'panel', area: 'sub_users' },
    schema: {
      params: Type.Object({ id: IntId }),
      response: { 200: Envelope(Invitation), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const identity = await identityOf(request, deps);
    const r = await reinviteSubUser({ db: deps.db, accountId: caller.accountId, now: deps.now() }, request.params.id, panelUrl(deps), inviterName(identity));
    reply.header('Cache-Control', 'no-store');
    return ok(request, { sub_user: subUserDetailView(r.subUser), url: r.url, expires_at: r.expiresAt.toISOString() });
  });
}
