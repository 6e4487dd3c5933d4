import { deleteVmSnapshot } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { operationView } from '../servers/presenters.ts';
import { ADDITION, VdcSnapshotDeletedSchema, VmSnapshotParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/vdc/vms/:id/snapshots/:sid', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'deleteVdcVmSnapshot',
      tags: ['VDC'],
      summary: 'Delete a snapshot of a VDC VM',
      description: `${ADDITION}

The snapshot leaves the list at once; the \`vdc_vm.snapshot_delete\` operation removes it from the platform. A snapshot still being
taken, or a VM busy with another operation (a restore from this snapshot, say), is 409 \`STATE_CONFLICT\`.`,
      params: VmSnapshotParams,
      response: { 200: Envelope(VdcSnapshotDeletedSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const { snapshot, operation } = await withCtx(deps, request, (ctx) => deleteVmSnapshot(ctx, request.params.id, request.params.sid));
    return ok(request, { id: snapshot.id, status: 'deleted' as const, operation: operationView(operation) });
  });
}
