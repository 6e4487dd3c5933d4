import { Type } from '@sinclair/typebox';
import { listSubUsers } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { SubUserSchema, subUserView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/sub-users', {
    config: { area: 'sub_users' },
    schema: {
      operationId: 'listSubUsers',
      tags: ['Sub-users'],
      summary: 'List sub-users',
      description: 'The account\'s sub-users in the order they were invited (deleted ones excluded). Read one for its permissions. '
        + 'Inviting a sub-user is done in the web panel (`POST /sub-users` answers 501).',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(['pending', 'active', 'inactive'] as const, { description: 'Only sub-users in this status.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(SubUserSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listSubUsers(ctx, request.query.status, pageOf(request.query)));
    return page(request, result, subUserView);
  });
}
