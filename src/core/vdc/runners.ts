// The worker's side of VM create, delete and resize. Power, password and reinstall use the
// runners every machine kind shares (machines/runners.ts) with VM_ROWS.
import { nodeNameOf } from '../../db/queries/nodes.ts';
import { findOsSlug } from '../../db/queries/servers.ts';
import { findVdcVmById, markVdcVmProvisioned, updateVdcVmRow } from '../../db/queries/vdc-vms.ts';
import { deletedVmSnapshotRefs } from '../../db/queries/vdc-snapshots.ts';
import type { Operation } from '../../db/schema.ts';
import type { Runner } from '../operations/runner.ts';
import { destroyMachineMadeBy } from '../servers/provision.ts';
import type { Db } from '../types.ts';
import { vmMachineRef } from './guards.ts';
import type { VmResizeParams } from './resize.ts';

/**
 * vdc_vm.create: asks the platform for the machine (the operation id is the request token, so a
 * run repeated after a lost worker gets the same machine), then activates the VM with its
 * addresses. If it finally fails, the VM is marked failed and gives its share back to the pool in
 * the same transaction, and any machine the platform made is destroyed.
 */
export const vmCreateRunner: Runner = {
  async run(rc, op) {
    const vm = await findVdcVmById(rc.db, op.resource_id);
    if (!vm || vm.deleted_at || vm.status !== 'pending') return { detail: 'Nothing to provision: the VM is no longer pending' };
    const { password } = op.params as { password?: string };
    const os = await findOsSlug(rc.db, vm.os_version_id);
    await rc.progress(5, 'Provisioning started');
    const machine = await rc.compute.create({
      token: op.id,
      hostname: vm.name,
      locationId: vm.location_id,
      node: await nodeNameOf(rc.db, vm.node_id),
      cpuCores: vm.cpu_cores,
      ramMb: vm.ram_mb,
      storageGb: vm.storage_gb,
      osSlug: os?.slug ?? null,
      password: password ?? '',
      fromSnapshotRef: null,
      extraIpv4: 0,
      extraIpv6: 0,
      ipv6: vm.held_ipv6 > 0,
      resourceId: vm.id,
    }, rc.progress);
    return {
      detail: 'VM is running',
      apply: async (trx: Db) => {
        await markVdcVmProvisioned(trx, vm.id, {
          providerRef: machine.ref, primaryIp: machine.network.ipv4?.address ?? null, primaryIpv6: machine.network.ipv6?.address ?? null,
        });
      },
    };
  },

  async compensate(trx, op) {
    const vm = await findVdcVmById(trx, op.resource_id);
    if (!vm || vm.status !== 'pending') return;
    await updateVdcVmRow(trx, vm.id, { status: 'failed', power_state: 'error', held_cpu: 0, held_ram_mb: 0, held_storage_gb: 0, held_ipv4: 0, held_ipv6: 0 });
  },

  afterFailure: destroyMachineMadeBy,
};

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

const resizeParams = (op: Operation) => op.params as unknown as VmResizeParams;

/**
 * vdc_vm.resize: the platform resizes (and restarts) the machine. The VM held the larger of both
 * sizes while it ran; the completion keeps the new size (giving a shrink back to the pool), a final
 * failure the old one (giving a growth back).
 */
export const vmResizeRunner: Runner = {
  async run(rc, op) {
    const { spec } = resizeParams(op);
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
    const { previous } = resizeParams(op);
    await updateVdcVmRow(trx, op.resource_id, { held_cpu: previous.cpuCores, held_ram_mb: previous.ramMb, held_storage_gb: previous.storageGb });
  },
};
