import { findVdcVmById } from '../../../db/queries/vdc-vms.ts';
import { deletedVmSnapshotRefs } from '../../../db/queries/vdc-snapshots.ts';
import type { Runner } from '../../operations/runner.ts';

/**
 * vdc_vm.delete: destroys the machine and the VM's snapshots upstream. The VM is already gone for
 * the customer and its share is back in the pool; destroying twice is harmless, so a retried run
 * is too. Nothing to compensate: a final failure is the operator's cue.
 */
export const vmDeleteRunner: Runner = {
  async run(rc, op) {
    const vm = await findVdcVmById(rc.db, op.resource_id);
    for (const ref of await deletedVmSnapshotRefs(rc.db, op.resource_id)) await rc.compute.deleteSnapshot(ref);
    if (!vm?.provider_ref) return { detail: 'VM removed (it had no machine)' };
    await rc.progress(10, 'Destroying the machine');
    await rc.compute.destroy(vm.provider_ref, op.id);
    return { detail: 'VM removed' };
  },
};
