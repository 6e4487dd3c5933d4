// The worker's side of VM snapshots: take one, remove one upstream, restore the disk from one.
import { findVdcVmById, updateVdcVmRow } from '../../../db/queries/vdc-vms.ts';
import { discardCreatingVdcSnapshot, findVdcSnapshotById, markVdcSnapshotAvailable } from '../../../db/queries/vdc-snapshots.ts';
import type { Operation } from '../../../db/schema.ts';
import { ProviderError } from '../../../providers/compute/types.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { vmMachineRef } from '../guards.ts';
import type { VmSnapshotParams } from '../snapshots.ts';

const snapshotIdOf = (op: Operation) => (op.params as Partial<VmSnapshotParams>).snapshot_id ?? 0;

/**
 * vdc_vm.snapshot: the operation id is the request token, so a run repeated after a lost worker
 * gets the same snapshot. A final failure discards the snapshot (nothing was charged).
 */
export const vmSnapshotRunner: Runner = {
  async run(rc, op) {
    const snapshot = await findVdcSnapshotById(rc.db, snapshotIdOf(op));
    if (!snapshot || snapshot.deleted_at || snapshot.status !== 'creating') return { detail: 'Nothing to do: the snapshot is no longer being taken' };
    const vm = await findVdcVmById(rc.db, op.resource_id);
    // No retry can bring the machine back: fail now.
    if (!vm || vm.deleted_at || vm.provider_ref === null) throw new ProviderError('UPSTREAM_ERROR', `VM ${op.resource_id} no longer has a machine`, false);
    await rc.progress(5, `Snapshot ${snapshot.name} started`);
    const taken = await rc.compute.snapshot(vm.provider_ref, op.id, rc.progress);
    return {
      detail: `Snapshot ${snapshot.name} is available (${taken.sizeGb} GB)`,
      apply: async (trx: Db) => {
        await markVdcSnapshotAvailable(trx, snapshot.id, { sizeGb: taken.sizeGb, providerRef: taken.ref });
      },
    };
  },

  async compensate(trx, op, _reason, now) {
    await discardCreatingVdcSnapshot(trx, snapshotIdOf(op), now);
  },
};

/** vdc_vm.snapshot_delete: the snapshot left the customer's list when asked; this frees it upstream. */
export const vmSnapshotDeleteRunner: Runner = {
  async run(rc, op) {
    const snapshot = await findVdcSnapshotById(rc.db, snapshotIdOf(op));
    if (!snapshot?.provider_ref) return { detail: 'Snapshot deleted' };
    await rc.compute.deleteSnapshot(snapshot.provider_ref);
    return { detail: `Snapshot ${snapshot.name} deleted` };
  },
};

/**
 * vdc_vm.restore: the platform rewrites the VM's disk from the snapshot and boots it; the VM takes
 * the OS it had when the snapshot was taken. Its size stays (a disk never shrinks). A final failure
 * leaves the power state `unknown`: the machine may have stopped part of the way.
 */
export const vmRestoreRunner: Runner = {
  async run(rc, op) {
    const snapshot = await findVdcSnapshotById(rc.db, snapshotIdOf(op));
    if (!snapshot || snapshot.deleted_at || snapshot.status !== 'available' || !snapshot.provider_ref) {
      throw new ProviderError('UPSTREAM_ERROR', `snapshot ${snapshotIdOf(op)} is no longer available`, false);
    }
    const ref = await vmMachineRef(rc.db, op.resource_id);
    await rc.compute.restoreSnapshot(ref, snapshot.provider_ref, op.id, rc.progress);
    return {
      detail: `Restored snapshot ${snapshot.name}; the VM is running`,
      apply: async (trx: Db) => {
        await updateVdcVmRow(trx, op.resource_id, { power_state: 'running', ...(snapshot.os_version_id !== null ? { os_version_id: snapshot.os_version_id } : {}) });
      },
    };
  },

  async compensate(trx, op) {
    await updateVdcVmRow(trx, op.resource_id, { power_state: 'unknown' });
  },
};
