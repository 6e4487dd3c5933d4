import { Type } from '@sinclair/typebox';
import { resourceWrite } from '../../../core/one-at-a-time.ts';
import { createSnapshot } from '../../../core/servers/snapshots.ts';
import { inTransaction } from '../../../db/transaction.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { ServerIdParams, V1Snapshot, v1Snapshot } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/snapshots',
    area: 'servers',
    operationId: 'createServerSnapshot',
    tag: 'Snapshots',
    summary: 'Take a snapshot',
    description: 'Billable: the snapshot\'s first month is charged now; it is billed monthly until deleted. Taken in the background; '
      + 'the server must be active and not busy with another operation (422 `STATE_CONFLICT`).',
    params: ServerIdParams,
    body: Type.Object({
      name: Type.String({ minLength: 1, maxLength: 100, description: 'A name for the snapshot.', examples: ['before-upgrade'] }),
    }, { additionalProperties: false }),
    response: V1Data(V1Snapshot),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE'],
    handler: async (request) => {
      const { snapshot } = await withCtx(deps, request, (ctx) => resourceWrite(ctx, 'server', request.params.server_id,
        () => inTransaction(ctx.db, (trx) => createSnapshot(ctx, trx, request.params.server_id, request.body))));
      return v1ok(v1Snapshot(snapshot), 'Snapshot is being created');
    },
  });
}
