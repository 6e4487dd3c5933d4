import { Type } from '@sinclair/typebox';
import { deleteSubUser } from '../../../core/sub-users/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, component, errorResponses } from '../../schemas.ts';
import { SubUserParams } from './presenters.ts';

const SubUserDeleted = component('SubUserDeleteResult', Type.Object({
  id: Type.Integer({ examples: [7] }),
  status: StringEnum(['deleted'] as const),
  revoked_api_keys: Type.Integer({ minimum: 0, description: 'The sub-user\'s API keys revoked with it.', examples: [1] }),
}, { description: 'A deleted sub-user: its permissions are gone and its API keys revoked.' }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/sub-users/:id', {
    config: { area: 'sub_users' },
    schema: {
      operationId: 'deleteSubUser',
      tags: ['Sub-users'],
      summary: 'Delete a sub-user',
      description: 'Deletes the sub-user with every permission assignment, and revokes each of its API keys (a later use is 401 `AUTH_INVALID`), in one step.',
      params: SubUserParams,
      response: { 200: Envelope(SubUserDeleted), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => deleteSubUser(ctx, request.params.id));
    return ok(request, { id: r.subUser.id, status: 'deleted' as const, revoked_api_keys: r.revokedKeys });
  });
}
