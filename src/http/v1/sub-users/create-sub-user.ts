import { Type } from '@sinclair/typebox';
import { NAME_MAX } from '../../../core/sub-users/rules.ts';
import { createSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { V1SubUserDetail } from './schemas.ts';
import { v1SubUserDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/sub-users', area: 'sub_users', operationId: 'createSubUser', tag: 'Sub-users',
    summary: 'Create a sub-user',
    description: `Creates the sub-user as the panel's invitation would: \`pending\`, with no permissions (set \`active\` and permissions in the
panel, or through v2). The password must hold 8+ characters with upper case, lower case, digit and symbol (422 \`INVALID_PASSWORD\`); it
is kept only as a hash. An email already used by one of the account's sub-users is 422 naming \`email\`.`,
    body: Type.Object({
      email: Type.String({ minLength: 3, maxLength: 254, examples: ['grace@example.com'] }),
      first_name: Type.String({ minLength: 1, maxLength: NAME_MAX, examples: ['Grace'] }),
      last_name: Type.String({ minLength: 1, maxLength: NAME_MAX, examples: ['Hopper'] }),
      password: Type.String({ minLength: 1, maxLength: 128, examples: ['c0rrect-Horse-battery'] }),
    }, { additionalProperties: false }),
    response: V1Data(V1SubUserDetail),
    errors: ['INVALID_PASSWORD'],
    handler: async (request) => {
      const sub = await withCtx(deps, request, (ctx) => createSubUser(ctx.db, ctx.accountId, request.body));
      return v1ok(v1SubUserDetail(sub), 'Sub-user created');
    },
  });
}
