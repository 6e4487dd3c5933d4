// State checks shared by every write on an existing VDC VM, and the VM rows as the runners every
// machine kind shares see them. Each write locks the VM row first (then, if it changes what the VM
// holds, the pool row: always in that order, so no two writes deadlock).
import { findAccountVdcVm, findVdcVmById, lockAccountVdcVm, updateVdcVmRow } from '../../db/queries/vdc-vms.ts';
import type { VdcVm } from '../../db/schema.ts';
import { ProviderError } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { MachineRows } from '../machines/runners.ts';
export { requireActiveVm } from '../machines/guards.ts';
import type { Db } from '../types.ts';

/** The operations' resource type of a VM (`vdc_vm.<verb>` operations). */
export const VM_RESOURCE = 'vdc_vm';

/** The caller's live VM; another account's id (or a deleted VM) is not found. */
export async function requireVm(ctx: Ctx, id: string, db: Db = ctx.db): Promise<VdcVm> {
  const vm = await findAccountVdcVm(db, ctx.accountId, id);
  if (!vm) throw notFound('VM');
  return vm;
}

/** Same, locked for the rest of `trx`. */
export async function lockVm(ctx: Ctx, trx: Db, id: string): Promise<VdcVm> {
  const vm = await lockAccountVdcVm(trx, ctx.accountId, id);
  if (!vm) throw notFound('VM');
  return vm;
}

/** For runners: the platform's id of the VM's machine (actions wait for the create, so a missing one is final). */
export async function vmMachineRef(db: Db, vmId: string): Promise<string> {
  const vm = await findVdcVmById(db, vmId);
  if (!vm?.provider_ref || vm.deleted_at) throw new ProviderError('UPSTREAM_ERROR', `VM ${vmId} has no machine`, false);
  return vm.provider_ref;
}

/** VDC VMs as the runners every machine kind shares see them. */
export const VM_ROWS: MachineRows = {
  noun: 'VM',
  refOf: vmMachineRef,
  update: async (db, id, patch) => {
    await updateVdcVmRow(db, id, patch);
  },
};
