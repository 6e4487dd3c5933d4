import { deleteServer } from '../../../core/servers/delete.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Message } from '../schemas.ts';
import { ServerIdParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'DELETE',
    url: '/servers/:server_id',
    area: 'servers',
    operationId: 'deleteServer',
    tag: 'Servers',
    summary: 'Delete a server',
    description: 'Permanent and irreversible: the server leaves every list at once, the unused hours of its cycle are refunded, and its machine is destroyed. '
      + 'A server still being created or busy with another operation is 422 `STATE_CONFLICT`.',
    params: ServerIdParams,
    response: V1Message,
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => deleteServer(ctx, request.params.server_id));
      return v1message(`Server ${r.id} deleted`);
    },
  });
}
