// GET /panel/api/sub-users: every sub-user of the account, with whether it can sign in to the panel
// (invited, password set, two-factor). Needs sub_users:read. Editing, permissions, deactivating and
// deleting are v2's (PATCH, PUT …/permissions, DELETE /v2/sub-users/{id}), which the page calls.
import { Type } from '@sinclair/typebox';
import { panelAccessOf } from '../../../core/panel/invitations.ts';
import { listSubUsers } from '../../../core/sub-users/service.ts';
import { ok } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses, ref } from '../../schemas.ts';
import { SubUserDetailSchema, subUserDetailView } from '../../v2/sub-users/presenters.ts';
import type { PanelDeps } from '../deps.ts';

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
}
