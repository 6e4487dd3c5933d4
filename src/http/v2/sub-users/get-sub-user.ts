import { getSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { SubUserDetailSchema, SubUserParams, subUserDetailView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/sub-users/:id', {
    config: { area: 'sub_users' },
    schema: {
      operationId: 'getSubUser',
      tags: ['Sub-users'],
      summary: 'Get a sub-user',
      description: 'The sub-user with its permission keys. Another account\'s sub-user, or a deleted one, is 404.',
      params: SubUserParams,
      response: { 200: Envelope(SubUserDetailSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, subUserDetailView(await withCtx(deps, request, (ctx) => getSubUser(ctx, request.params.id)))));
}
