import { Type } from '@sinclair/typebox';
import { restoreServerSnapshot } from '../../../core/servers/snapshot-manage.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Message } from '../schemas.ts';
import { SnapshotParams, snapshotIdOf } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/snapshots/:snapshot_id/restore',
    area: 'servers',
    operationId: 'restoreServerSnapshot',
    tag: 'Snapshots',
    summary: 'Restore a server from a snapshot',
    description: 'Rewrites the server\'s disk from one of its own snapshots — everything written since is lost — and boots it; runs in the background. '
      + 'A server that is not active or is busy, or a snapshot still being taken, is 422 `STATE_CONFLICT`.',
    params: SnapshotParams,
    body: Type.Object({}, { additionalProperties: false, description: 'None.' }),
    response: V1Message,
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const { snapshot } = await withCtx(deps, request, (ctx) => restoreServerSnapshot(ctx, request.params.server_id, snapshotIdOf(request.params.snapshot_id)));
      return v1message(`Restore from snapshot ${snapshot.id} started`);
    },
  });
}
