// VM delete. The caller names the VM to confirm (v1's confirm_vm_name, v2's confirm_name): a
// mismatch is 422 naming that field, and nothing happens. One transaction: the VM leaves every list
// and gives its share back to the pool (the trigger, in the same statement), its snapshots go with
// it, and a vdc_vm.delete operation is queued to destroy the machine and the snapshots upstream.
// The operation is started first, so an action still running on the VM refuses the delete.
import type { Operation } from '../../db/schema.ts';
import { updateVdcVmRow } from '../../db/queries/vdc-vms.ts';
import { deleteVmSnapshots } from '../../db/queries/vdc-snapshots.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { startOperation } from '../operations/service.ts';
import { lockVm, requireActiveVm } from './guards.ts';

export const DELETE_OPERATION = 'vdc_vm.delete';

export interface DeleteConfirmation {
  /** The VM's name as the caller typed it; must equal the VM's name exactly. */
  name: string;
  /** The field the caller sent it in, named by a refusal. */
  field: string;
}

export async function deleteVm(ctx: Ctx, id: string, confirm: DeleteConfirmation): Promise<{ id: string; operation: Operation }> {
  return inTransaction(ctx.db, async (trx) => {
    const vm = await lockVm(ctx, trx, id);
    if (confirm.name !== vm.name) {
      throw invalid(confirm.field, `must be the VM's name exactly, to confirm the delete (the VM ${vm.id} is not called "${truncate(confirm.name)}")`);
    }
    // One still being created waits for its operation (409 naming it); a failed one may go (it holds nothing).
    if (vm.status === 'pending') await requireActiveVm(trx, vm);
    const operation = await startOperation(ctx, trx, { type: DELETE_OPERATION, resourceId: id, detail: 'Queued for removal' });
    await deleteVmSnapshots(trx, id, ctx.now);
    await updateVdcVmRow(trx, id, { deleted_at: ctx.now });
    await recordEvent(trx, 'vdc_vm.deleted', ctx.accountId, id);
    return { id, operation };
  });
}

const truncate = (s: string) => (s.length > 64 ? `${s.slice(0, 64)}…` : s);
