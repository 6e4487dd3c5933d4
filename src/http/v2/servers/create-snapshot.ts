import { Type } from '@sinclair/typebox';
import { idempotent, parseIdempotencyKey, requestFingerprint } from '../../../core/idempotency/service.ts';
import { createSnapshot } from '../../../core/servers/snapshots.ts';
import { ts } from '../../../core/time.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, Timestamp, errorResponses } from '../../schemas.ts';
import { OperationSchema, ServerParams, operationView } from './presenters.ts';

const Created = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: StringEnum(['creating'] as const),
  created_at: Timestamp,
  operation: OperationSchema,
}, { title: 'SnapshotCreated' });

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/snapshots', {
    config: { area: 'servers' },
    schema: {
      tags: ['Servers'],
      summary: 'Take a snapshot (billable: the first month of the protection fee is charged now; refunded if it fails). Accepts Idempotency-Key.',
      params: ServerParams,
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: 'A UUID; retries with the same key and body replay the first response' })) }),
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      response: { 201: Envelope(Created), ...errorResponses },
    },
  }, async (request, reply) => {
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const fingerprint = requestFingerprint('POST', `/v2/servers/${request.params.id}/snapshots`, request.body);
    const result = await withCtx(deps, request, (ctx) => idempotent(ctx, key, fingerprint, async (trx) => {
      const { snapshot, operation } = await createSnapshot(ctx, trx, request.params.id, request.body);
      const body = { id: snapshot.id, name: snapshot.name, status: 'creating' as const, created_at: ts(snapshot.created_at), operation: operationView(operation) };
      return { status: 201, body };
    }));
    if (result.replayed) reply.header('Idempotent-Replayed', 'true');
    reply.code(result.status);
    // A replay returns the stored body of the first response, which had this very shape.
    return ok(request, result.body as { id: number; name: string; status: 'creating'; created_at: string; operation: ReturnType<typeof operationView> });
  });
}
