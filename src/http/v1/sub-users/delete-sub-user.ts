import { deleteSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { intIdOr404 } from '../ids.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1MessageSaying } from '../schemas.ts';
import { SubUserParams } from './schemas.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'DELETE', url: '/sub-users/:sub_user_id', area: 'sub_users', operationId: 'deleteSubUser', tag: 'Sub-users',
    summary: 'Delete a sub-user',
    description: 'Deletes the sub-user with its permissions and revokes its API keys, in one step.',
    params: SubUserParams,
    response: V1MessageSaying('Sub-user deleted'),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const id = intIdOr404(request.params.sub_user_id, 'Sub-user');
      await withCtx(deps, request, (ctx) => deleteSubUser(ctx, id));
      return v1message('Sub-user deleted');
    },
  });
}
