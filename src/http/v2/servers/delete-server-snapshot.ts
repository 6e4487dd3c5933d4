import { deleteServerSnapshot } from '../../../core/servers/snapshot-manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ADDITION, ServerSnapshotParams, SnapshotDeletedSchema } from './additions-presenters.ts';
import { operationView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/servers/:id/snapshots/:sid', {
    config: { area: 'servers' },
    schema: {
      operationId: 'deleteServerSnapshot',
      tags: ['Servers'],
      summary: 'Delete a snapshot of a server',
      description: `${ADDITION}

The snapshot leaves the list and stops billing at once (the month already paid is not refunded); the \`server.snapshot_delete\`
operation removes it from the platform. A snapshot still being taken, or a server busy with another operation, is 409 \`STATE_CONFLICT\`.`,
      params: ServerSnapshotParams,
      response: { 200: Envelope(SnapshotDeletedSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const { snapshot, operation } = await withCtx(deps, request, (ctx) => deleteServerSnapshot(ctx, request.params.id, request.params.sid));
    return ok(request, { id: snapshot.id, status: 'deleted' as const, operation: operationView(operation) });
  });
}
