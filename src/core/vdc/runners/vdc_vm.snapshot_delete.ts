import { findVdcSnapshotById } from '../../../db/queries/vdc-snapshots.ts';
import type { Runner } from '../../operations/runner.ts';
import type { VmSnapshotParams } from './vdc_vm.snapshot.ts';

/** vdc_vm.snapshot_delete: the snapshot left the customer's list when asked; this frees it upstream. */
export const vmSnapshotDeleteRunner: Runner<VmSnapshotParams> = {
  async run(rc, op) {
    const snapshot = await findVdcSnapshotById(rc.db, op.params.snapshot_id);
    if (!snapshot?.provider_ref) return { detail: 'Snapshot deleted' };
    await rc.compute.deleteSnapshot(snapshot.provider_ref);
    return { detail: `Snapshot ${snapshot.name} deleted` };
  },
};
