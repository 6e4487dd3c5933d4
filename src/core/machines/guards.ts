// The checks of a machine that is still being built, shared by its family's actions and by the
// nodes' migrations (src/core/nodes moves machines of both kinds, and imports neither family).
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import type { Server, VdcVm } from '../../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../types.ts';

/**
 * A pending server is being built by an operation (create or clone): a 409 names it. Call before
 * requireActive (which, being an assertion, cannot look it up).
 */
export async function refuseWhileBuilding(trx: Db, server: Server): Promise<void> {
  if (server.status !== 'pending') return;
  const running = await findUnfinishedOperation(trx, 'server', server.id);
  if (running) {
    throw new ApiError('STATE_CONFLICT', `Server ${server.id} is still being built by operation ${running.id} (${running.type}); retry once it has finished (GET /v2/operations/${running.id})`);
  }
}

/**
 * Actions need a provisioned, active VM: one still being created is 409 naming its operation, one
 * whose creation failed is 409 too (delete it).
 */
export async function requireActiveVm(trx: Db, vm: VdcVm): Promise<VdcVm & { provider_ref: string }> {
  if (vm.status === 'pending') {
    const running = await findUnfinishedOperation(trx, 'vdc_vm', vm.id);
    throw new ApiError('STATE_CONFLICT', running
      ? `VM ${vm.id} is still being created by operation ${running.id} (${running.type}); retry once it has finished (GET /v2/operations/${running.id})`
      : `VM ${vm.id} is still being created`);
  }
  if (vm.status !== 'active' || vm.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', `VM ${vm.id} is ${vm.status}${vm.status === 'failed' ? ' (its creation failed; delete it)' : ''}; this needs an active VM`);
  }
  return vm as VdcVm & { provider_ref: string };
}
