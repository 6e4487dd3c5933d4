import { Type } from '@sinclair/typebox';
import { replacePermissions } from '../../../core/sub-users/service.ts';
import { ALL_SCOPES } from '../../../core/types.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { SubUserParams, SubUserPermissionsSchema, permissionsOf } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.put('/sub-users/:id/permissions', {
    config: { area: 'sub_users' },
    schema: {
      operationId: 'replaceSubUserPermissions',
      tags: ['Sub-users'],
      summary: 'Replace a sub-user\'s permissions',
      description: `Replaces the whole set; an empty array removes every permission. Permissions are scope names (\`<area>:read\`,
\`<area>:write\`); an unknown one is 422 naming its item (\`permissions[2]\`); duplicates count once. The sub-user's keys act on the
new set from their next request. A sub-user's own key cannot grant a permission it lacks (403 \`AUTH_SCOPE_INSUFFICIENT\`).`,
      params: SubUserParams,
      body: Type.Object({
        permissions: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
          maxItems: ALL_SCOPES.length * 2, description: 'Scope names.', examples: [['servers:read', 'servers:write', 'tickets:write']],
        }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(SubUserPermissionsSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const caller = callerOf(request);
    const sub = await withCtx(deps, request, (ctx) => replacePermissions(ctx, request.params.id, request.body.permissions, { subUserId: caller.subUserId, scopes: caller.scopes }));
    return ok(request, { permissions: permissionsOf(sub) });
  });
}
