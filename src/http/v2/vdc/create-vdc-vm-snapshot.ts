import { Type } from '@sinclair/typebox';
import { ts } from '../../../core/time.ts';
import { createVmSnapshot } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { ADDITION, VdcSnapshotCreatedSchema, VmParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/vdc/vms/:id/snapshots', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'createVdcVmSnapshot',
      tags: ['VDC'],
      summary: 'Take a snapshot of a VDC VM',
      description: `${ADDITION}

Free in a VDC. Answers 201 with the snapshot (\`creating\`) and the \`vdc_vm.snapshot\` operation to poll; it becomes \`available\` when
the operation completes (and disappears if it fails). A VM that is not active, or busy with another operation, is 409 \`STATE_CONFLICT\`.`,
      params: VmParams,
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, description: 'A label for the snapshot.', examples: ['before-upgrade'] }) }, { additionalProperties: false }),
      response: { 201: Envelope(VdcSnapshotCreatedSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const { snapshot, operation } = await withCtx(deps, request, (ctx) => createVmSnapshot(ctx, request.params.id, request.body));
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'v2', 'vdc', 'vms', request.params.id, 'snapshots', snapshot.id);
    return ok(request, { id: snapshot.id, name: snapshot.name, status: 'creating' as const, created_at: ts(snapshot.created_at), operation: operationView(operation) });
  });
}
