import { Type } from '@sinclair/typebox';
import { listSnapshots } from '../../../core/servers/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { SnapshotSchema, snapshotView } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/snapshots', {
    config: { area: 'servers' },
    schema: {
      operationId: 'listServerSnapshots',
      tags: ['Servers'],
      summary: 'List snapshots of a server',
      description: 'The server\'s snapshots, newest first; deleted ones are excluded. An `available` one can seed a new server (`source.snapshot_id`).',
      params: ServerParams,
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(SnapshotSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listSnapshots(ctx, request.params.id, pageOf(request.query)));
    return page(request, result, snapshotView);
  });
}
