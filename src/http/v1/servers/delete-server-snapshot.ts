import { deleteServerSnapshot } from '../../../core/servers/snapshot-manage.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Message } from '../schemas.ts';
import { SnapshotParams, snapshotIdOf } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'DELETE',
    url: '/servers/:server_id/snapshots/:snapshot_id',
    area: 'servers',
    operationId: 'deleteServerSnapshot',
    tag: 'Snapshots',
    summary: 'Delete a snapshot',
    description: 'Permanent: the snapshot leaves the list and stops billing at once (the month already paid is not refunded). A snapshot still '
      + 'being taken, or a server busy with another operation, is 422 `STATE_CONFLICT`.',
    params: SnapshotParams,
    response: V1Message,
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const { snapshot } = await withCtx(deps, request, (ctx) => deleteServerSnapshot(ctx, request.params.server_id, snapshotIdOf(request.params.snapshot_id)));
      return v1message(`Snapshot ${snapshot.id} deleted`);
    },
  });
}
