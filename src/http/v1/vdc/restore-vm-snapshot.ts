import { restoreVmSnapshot } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { intIdOr404 } from '../ids.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1MessageSaying } from '../schemas.ts';
import { VmSnapshotParams } from './schemas.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/vms/:vm_id/snapshots/:snapshot_id/restore', area: 'vdc', operationId: 'restoreVmSnapshot', tag: 'VDC',
    summary: 'Restore a VM from a snapshot',
    description: 'Rewrites the VM\'s disk from one of its completed snapshots (everything written since is lost) and boots it; the VM keeps '
      + 'its size. A VM that is not active or busy, or a snapshot still being taken, is 422 `STATE_CONFLICT`. No body.',
    params: VmSnapshotParams,
    response: V1MessageSaying('Snapshot restore started'),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const sid = intIdOr404(request.params.snapshot_id, 'Snapshot');
      await withCtx(deps, request, (ctx) => restoreVmSnapshot(ctx, request.params.vm_id, sid));
      return v1message('Snapshot restore started');
    },
  });
}
