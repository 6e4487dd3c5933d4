import { Type } from '@sinclair/typebox';
import { listSnapshots } from '../../../core/servers/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { ServerIdParams, V1Snapshot, v1Snapshot } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET',
    url: '/servers/:server_id/snapshots',
    area: 'servers',
    operationId: 'listServerSnapshots',
    tag: 'Snapshots',
    summary: 'List a server\'s snapshots',
    description: 'The server\'s snapshots, newest first; deleted ones are left out.',
    params: ServerIdParams,
    querystring: Type.Object(V1PageQuery('per_page'), { additionalProperties: false }),
    response: V1List(V1Snapshot),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const q = request.query;
      const r = await withCtx(deps, request, (ctx) => listSnapshots(ctx, request.params.server_id, { page: q.page, perPage: q.per_page }));
      return v1page(r, v1Snapshot);
    },
  });
}
