import { Type } from '@sinclair/typebox';
import { NAME_MAX } from '../../../core/sub-users/rules.ts';
import { updateSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { intIdOr404 } from '../ids.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { SubUserParams, V1SubUserDetail } from './schemas.ts';
import { v1SubUserDetail } from './views.ts';

const Name = (example: string) => Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX, examples: [example] }));

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'PUT', url: '/sub-users/:sub_user_id', area: 'sub_users', operationId: 'updateSubUser', tag: 'Sub-users',
    summary: 'Update a sub-user\'s names',
    description: 'Changes the names sent (at least one); answers the sub-user with its permissions.',
    params: SubUserParams,
    body: Type.Object({ first_name: Name('Grace'), last_name: Name('Hopper') }, { additionalProperties: false, minProperties: 1 }),
    response: V1Data(V1SubUserDetail),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const id = intIdOr404(request.params.sub_user_id, 'Sub-user');
      const caller = callerOf(request);
      const sub = await withCtx(deps, request, (ctx) => updateSubUser(ctx, id, request.body, { subUserId: caller.subUserId, scopes: caller.scopes }));
      return v1ok(v1SubUserDetail(sub), 'Sub-user updated');
    },
  });
}
