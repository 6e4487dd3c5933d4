// vdc_vm.snapshot: the worker's side of taking a VM snapshot (vdc/snapshots.ts).
import { findVdcVmById } from '../../../db/queries/vdc-vms.ts';
import { discardCreatingVdcSnapshot, findVdcSnapshotById, markVdcSnapshotAvailable } from '../../../db/queries/vdc-snapshots.ts';
import { ProviderError } from '../../../providers/compute/types.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';

/** The snapshot a vdc_vm.snapshot, vdc_vm.snapshot_delete or vdc_vm.restore acts on. */
export interface VmSnapshotParams {
  snapshot_id: number;
}

/**
 * vdc_vm.snapshot: the operation id is the request token, so a run repeated after a lost worker
 * gets the same snapshot. A final failure discards the snapshot (nothing was charged).
 */
export const vmSnapshotRunner: Runner<VmSnapshotParams> = {
  async run(rc, op) {
    const snapshot = await findVdcSnapshotById(rc.db, op.params.snapshot_id);
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
    await discardCreatingVdcSnapshot(trx, op.params.snapshot_id, now);
  },
};
