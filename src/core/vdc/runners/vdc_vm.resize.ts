import { updateVdcVmRow } from '../../../db/queries/vdc-vms.ts';
import type { MachineSpec } from '../../../providers/compute/types.ts';
import type { Runner } from '../../operations/runner.ts';
import { vmMachineRef } from '../guards.ts';

/** What the resize runner needs, kept in the operation's params. */
export interface VmResizeParams {
  spec: MachineSpec;
  previous: MachineSpec;
}

/**
 * vdc_vm.resize: the platform resizes (and restarts) the machine. The VM held the larger of both
 * sizes while it ran; the completion keeps the new size (giving a shrink back to the pool), a final
 * failure the old one (giving a growth back).
 */
export const vmResizeRunner: Runner<VmResizeParams> = {
  async run(rc, op) {
    const { spec } = op.params;
    await rc.compute.resize(await vmMachineRef(rc.db, op.resource_id), spec, op.id, rc.progress);
    return {
      detail: 'Resized; the VM is running',
      apply: async (trx) => {
        await updateVdcVmRow(trx, op.resource_id, {
          cpu_cores: spec.cpuCores, ram_mb: spec.ramMb, storage_gb: spec.storageGb, power_state: 'running',
          held_cpu: spec.cpuCores, held_ram_mb: spec.ramMb, held_storage_gb: spec.storageGb,
        });
      },
    };
  },

  async compensate(trx, op) {
    const { previous } = op.params;
    await updateVdcVmRow(trx, op.resource_id, { held_cpu: previous.cpuCores, held_ram_mb: previous.ramMb, held_storage_gb: previous.storageGb });
  },
};
