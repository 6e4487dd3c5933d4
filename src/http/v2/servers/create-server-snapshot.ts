import { Type } from '@sinclair/typebox';
import { idempotent } from '../../../core/idempotency/service.ts';
import { resourceWrite } from '../../../core/one-at-a-time.ts';
import { createSnapshot } from '../../../core/servers/snapshots.ts';
import { ts } from '../../../core/time.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, StringEnum, Timestamp, component, errorResponses, ref } from '../../schemas.ts';
import { OperationSchema, ServerParams, operationView } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

const Created = component('SnapshotCreated', Type.Object({
  id: Type.Integer({ examples: [42] }),
  name: Type.String({ examples: ['before-upgrade'] }),
  status: StringEnum(['creating'] as const),
  created_at: Timestamp,
  operation: ref(OperationSchema),
}, { description: 'A snapshot being taken, and the `server.snapshot` operation taking it.' }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/snapshots', {
    config: { area: 'servers' },
    schema: {
      operationId: 'createServerSnapshot',
      tags: ['Servers'],
      summary: 'Take a snapshot of a server',
      description: '**Billable**: the first month of the snapshot protection fee is charged now (refunded if the snapshot fails); billing stops when '
        + 'the snapshot is deleted. Answers 201 with the snapshot (`creating`) and the operation to poll. Accepts `Idempotency-Key`.',
      params: ServerParams,
      headers: BillableHeaders,
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, description: 'A label for the snapshot.', examples: ['before-upgrade'] }) }, { additionalProperties: false }),
      response: {
        201: Envelope(Created),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    // A replay returns the stored body of the first response, which had this very shape.
    const body = await answerOnce<{ id: number; name: string; status: 'creating'; created_at: string; operation: ReturnType<typeof operationView> }>(deps, request, reply,
      (ctx, idem) => resourceWrite(ctx, 'server', request.params.id, () => idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
        const { snapshot, operation } = await createSnapshot(ctx, trx, request.params.id, request.body);
        return { outcome: 'created', body: { id: snapshot.id, name: snapshot.name, status: 'creating', created_at: ts(snapshot.created_at), operation: operationView(operation) } };
      })));
    locate(reply, deps.config.publicUrl, 'v2', 'servers', request.params.id, 'snapshots', body.id);
    return ok(request, body);
  });
}
