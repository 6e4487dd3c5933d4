import { getSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { SubUserParams, SubUserPermissionsSchema, permissionsOf } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/sub-users/:id/permissions', {
    config: { area: 'sub_users' },
    schema: {
      operationId: 'getSubUserPermissions',
      tags: ['Sub-users'],
      summary: 'Get a sub-user\'s permissions',
      description: 'The sub-user\'s permission keys: scope names (`<area>:read`, `<area>:write`), in scope order.',
      params: SubUserParams,
      response: { 200: Envelope(SubUserPermissionsSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const sub = await withCtx(deps, request, (ctx) => getSubUser(ctx, request.params.id));
    return ok(request, { permissions: permissionsOf(sub) });
  });
}
