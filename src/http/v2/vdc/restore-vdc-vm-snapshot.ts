import { Type } from '@sinclair/typebox';
import { restoreVmSnapshot } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { ADDITION, VdcVmAcceptedSchema, VmSnapshotParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/vdc/vms/:id/snapshots/:sid/restore', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'restoreVdcVmSnapshot',
      tags: ['VDC'],
      summary: 'Restore a VDC VM from a snapshot',
      description: `${ADDITION}

Rewrites the VM's disk from one of its own \`available\` snapshots — everything written since is lost — and boots it: answers 202 with
the \`vdc_vm.restore\` operation to poll. The VM takes the OS it had when the snapshot was taken and keeps its size. A VM that is not
active, busy with another operation, or a snapshot still being taken is 409 \`STATE_CONFLICT\`. No body.`,
      params: VmSnapshotParams,
      body: Type.Object({}, { additionalProperties: false, description: 'No fields: the body may be left out.' }),
      response: { 202: Envelope(VdcVmAcceptedSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const { operation } = await withCtx(deps, request, (ctx) => restoreVmSnapshot(ctx, request.params.id, request.params.sid));
    reply.code(202);
    return ok(request, { operation: operationView(operation) });
  });
}
