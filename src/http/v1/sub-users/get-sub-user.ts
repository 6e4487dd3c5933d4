import { getSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { intIdOr404 } from '../ids.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { SubUserParams, V1SubUserDetail } from './schemas.ts';
import { v1SubUserDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/sub-users/:sub_user_id', area: 'sub_users', operationId: 'getSubUser', tag: 'Sub-users',
    summary: 'Get a sub-user',
    description: 'The sub-user with its permissions. Another account\'s sub-user, or a deleted one, is 404.',
    params: SubUserParams,
    response: V1Data(V1SubUserDetail),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const id = intIdOr404(request.params.sub_user_id, 'Sub-user');
      return v1ok(v1SubUserDetail(await withCtx(deps, request, (ctx) => getSubUser(ctx, id))));
    },
  });
}
