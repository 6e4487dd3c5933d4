import { Type } from '@sinclair/typebox';
import { serverAction } from '../../../core/servers/actions.ts';
import { requireServer } from '../../../core/servers/read.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { detailOf } from './detail.ts';
import { ServerIdParams, V1ServerDetail } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/reinstall',
    area: 'servers',
    operationId: 'reinstallServer',
    tag: 'Servers',
    summary: 'Reinstall the operating system',
    description: 'Reinstalls the server with an operating system version: **all data on it is erased**. Starts at once and runs in the background; '
      + 'answers with the server.',
    params: ServerIdParams,
    body: Type.Object({
      version_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'An operating system version (GET /operating-systems).', examples: [3] }),
    }, { additionalProperties: false }),
    response: V1Data(V1ServerDetail),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'OS_VERSION_INVALID', 'UPSTREAM_ERROR'],
    renames: { os_version_id: 'version_id' },
    handler: async (request) => withCtx(deps, request, async (ctx) => {
      const id = request.params.server_id;
      await serverAction(ctx, id, 'reinstall', { os_version_id: request.body.version_id });
      return v1ok(await detailOf(ctx, await requireServer(ctx, id)), 'Reinstall started');
    }),
  });
}
