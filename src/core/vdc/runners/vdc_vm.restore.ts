import { updateVdcVmRow } from '../../../db/queries/vdc-vms.ts';
import { findVdcSnapshotById } from '../../../db/queries/vdc-snapshots.ts';
import { ProviderError } from '../../../providers/compute/types.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { vmMachineRef } from '../guards.ts';
import type { VmSnapshotParams } from './vdc_vm.snapshot.ts';

/**
 * vdc_vm.restore: the platform rewrites the VM's disk from the snapshot and boots it; the VM takes
 * the OS it had when the snapshot was taken. Its size stays (a disk never shrinks). A final failure
 * leaves the power state `unknown`: the machine may have stopped part of the way.
 */
export const vmRestoreRunner: Runner<VmSnapshotParams> = {
  async run(rc, op) {
    const snapshot = await findVdcSnapshotById(rc.db, op.params.snapshot_id);
    if (!snapshot || snapshot.deleted_at || snapshot.status !== 'available' || !snapshot.provider_ref) {
      throw new ProviderError('UPSTREAM_ERROR', `snapshot ${op.params.snapshot_id} is no longer available`, false);
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
