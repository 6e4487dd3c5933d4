import { Type } from '@sinclair/typebox';
import { listSubUsers } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1SubUser } from './schemas.ts';
import { v1SubUser } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/sub-users', area: 'sub_users', operationId: 'listSubUsers', tag: 'Sub-users',
    summary: 'List sub-users',
    description: 'The account\'s sub-users in the order they were added (deleted ones left out). Read one for its permissions.',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1SubUser),
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => listSubUsers(ctx, undefined, { page: request.query.page, perPage: request.query.per_page }));
      return v1page(r, v1SubUser);
    },
  });
}
