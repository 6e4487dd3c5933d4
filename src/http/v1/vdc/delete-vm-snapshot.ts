import { deleteVmSnapshot } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { intIdOr404 } from '../ids.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1MessageSaying } from '../schemas.ts';
import { VmSnapshotParams } from './schemas.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'DELETE', url: '/vms/:vm_id/snapshots/:snapshot_id', area: 'vdc', operationId: 'deleteVmSnapshot', tag: 'VDC',
    summary: 'Delete a VM snapshot',
    description: 'The snapshot leaves the list at once and is removed from the platform in the background. One still being taken, '
      + 'or a VM busy with another action, is 422 `STATE_CONFLICT`.',
    params: VmSnapshotParams,
    response: V1MessageSaying('Snapshot deleted'),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const sid = intIdOr404(request.params.snapshot_id, 'Snapshot');
      await withCtx(deps, request, (ctx) => deleteVmSnapshot(ctx, request.params.vm_id, sid));
      return v1message('Snapshot deleted');
    },
  });
}
