import { Type } from '@sinclair/typebox';
import { restoreServerSnapshot } from '../../../core/servers/snapshot-manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ADDITION, ServerSnapshotParams, SnapshotRestoreSchema } from './additions-presenters.ts';
import { operationView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/snapshots/:sid/restore', {
    config: { area: 'servers' },
    schema: {
      operationId: 'restoreServerSnapshot',
      tags: ['Servers'],
      summary: 'Restore a server from a snapshot',
      description: `${ADDITION}

Rewrites the server's disk from one of its own \`available\` snapshots — everything written since is lost — and boots it: answers 202
with the \`server.restore\` operation to poll. The server takes the OS it had when the snapshot was taken and keeps its size.
A server that is not active or is busy with another operation, or a snapshot still being taken, is 409 \`STATE_CONFLICT\`. No body.`,
      params: ServerSnapshotParams,
      body: Type.Object({}, { additionalProperties: false, description: 'No fields: the body may be left out.' }),
      response: { 202: Envelope(SnapshotRestoreSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const { operation } = await withCtx(deps, request, (ctx) => restoreServerSnapshot(ctx, request.params.id, request.params.sid));
    reply.code(202);
    return ok(request, { operation: operationView(operation) });
  });
}
