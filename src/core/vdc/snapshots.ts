// Snapshots of VDC VMs: free (the pool is what the account pays for). Taking, deleting and
// restoring one are operations on the VM (`vdc_vm.snapshot`, `vdc_vm.snapshot_delete`,
// `vdc_vm.restore`), so one of them at a time runs on a VM, never beside another action: a snapshot
// cannot be deleted while it is being restored from, nor the disk resized while it is copied.
import { deleteVmSnapshots, findVmSnapshot, insertVdcSnapshot, listVmSnapshotsPage } from '../../db/queries/vdc-snapshots.ts';
import type { Operation, VdcSnapshot } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { resourceWrite } from '../one-at-a-time.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { startOperation } from '../operations/service.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { lockVm, requireActiveVm, requireVm } from './guards.ts';
import type { VmSnapshotParams } from './runners/vdc_vm.snapshot.ts';

export const SNAPSHOT_OPERATION = 'vdc_vm.snapshot';
export const SNAPSHOT_DELETE_OPERATION = 'vdc_vm.snapshot_delete';
export const RESTORE_OPERATION = 'vdc_vm.restore';

export async function listVmSnapshots(ctx: Ctx, vmId: string, page: PageRequest): Promise<Paged<VdcSnapshot>> {
  const vm = await requireVm(ctx, vmId);
  const { rows, total } = await listVmSnapshotsPage(ctx.db, vm.id, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** Queues a snapshot of an active VM, in one transaction. */
export async function createVmSnapshot(ctx: Ctx, vmId: string, input: { name: string }): Promise<{ snapshot: VdcSnapshot; operation: Operation }> {
  const name = input.name.trim();
  if (name === '') throw invalid('name', 'must not be blank');
  return resourceWrite(ctx, 'vdc_vm', vmId, () => inTransaction(ctx.db, async (trx) => {
    const vm = await requireActiveVm(trx, await lockVm(ctx, trx, vmId));
    const snapshot = await insertVdcSnapshot(trx, { account_id: ctx.accountId, vm_id: vm.id, name, os_version_id: vm.os_version_id, created_at: ctx.now });
    const params: VmSnapshotParams = { snapshot_id: snapshot.id };
    const operation = await startOperation(ctx, trx, {
      type: SNAPSHOT_OPERATION, resourceId: vm.id, params, detail: `Queued: snapshot ${name}`,
    });
    return { snapshot, operation };
  }));
}

/** The VM (locked) and its live snapshot `snapshotId`; either missing is 404. */
async function lockVmAndSnapshot(ctx: Ctx, trx: Db, vmId: string, snapshotId: number) {
  const vm = await lockVm(ctx, trx, vmId);
  const snapshot = await findVmSnapshot(trx, vm.id, snapshotId);
  if (!snapshot) throw notFound('Snapshot');
  return { vm, snapshot };
}

/**
 * The snapshot leaves the list at once; a vdc_vm.snapshot_delete operation removes it upstream.
 * One still being taken is 409 (its operation holds the VM).
 */
export async function deleteVmSnapshot(ctx: Ctx, vmId: string, snapshotId: number): Promise<{ snapshot: VdcSnapshot; operation: Operation }> {
  return resourceWrite(ctx, 'vdc_vm', vmId, () => inTransaction(ctx.db, async (trx) => {
    const { vm, snapshot } = await lockVmAndSnapshot(ctx, trx, vmId, snapshotId);
    const params: VmSnapshotParams = { snapshot_id: snapshot.id };
    const operation = await startOperation(ctx, trx, {
      type: SNAPSHOT_DELETE_OPERATION, resourceId: vm.id, params, detail: `Queued: delete snapshot ${snapshot.name}`,
    });
    await deleteVmSnapshots(trx, vm.id, ctx.now, [snapshot.id]);
    return { snapshot, operation };
  }));
}

/** Rewrites the VM's disk from an available snapshot of its own (vdc_vm.restore). */
export async function restoreVmSnapshot(ctx: Ctx, vmId: string, snapshotId: number): Promise<{ operation: Operation }> {
  return resourceWrite(ctx, 'vdc_vm', vmId, () => inTransaction(ctx.db, async (trx) => {
    const { vm, snapshot } = await lockVmAndSnapshot(ctx, trx, vmId, snapshotId);
    await requireActiveVm(trx, vm);
    const params: VmSnapshotParams = { snapshot_id: snapshot.id };
    // A snapshot still being taken holds the VM with its own operation: the 409 names it.
    const operation = await startOperation(ctx, trx, {
      type: RESTORE_OPERATION, resourceId: vm.id, params, detail: `Queued: restore snapshot ${snapshot.name}`,
    });
    if (snapshot.status !== 'available') throw new ApiError('STATE_CONFLICT', `Snapshot ${snapshot.id} is ${snapshot.status}; only an available snapshot can be restored`);
    return { operation };
  }));
}
