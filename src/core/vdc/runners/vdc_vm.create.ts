// The worker's side of VM create. Power, password and reinstall use the runners every machine
// kind shares (machines/runners.ts) with VM_ROWS.
import { nodeNameOf } from '../../../db/queries/nodes.ts';
import { findOsSlug } from '../../../db/queries/servers.ts';
import { findVdcVmById, markVdcVmProvisioned, updateVdcVmRow } from '../../../db/queries/vdc-vms.ts';
import type { Runner } from '../../operations/runner.ts';
import { destroyMachineMadeBy } from '../../servers/runners/server.create.ts';
import type { Db } from '../../types.ts';

/** What the worker's create needs that the VM row does not keep (written by vdc/create.ts). */
export interface VmCreateParams {
  password: string;
  user_data?: string;
}

/**
 * vdc_vm.create: asks the platform for the machine (the operation id is the request token, so a
 * run repeated after a lost worker gets the same machine — and the first run finds the record and
 * addresses the create reserved in its own transaction), then activates the VM with its
 * addresses. If it finally fails, the VM is marked failed and gives its share back to the pool in
 * the same transaction, and any machine the platform made is destroyed.
 */
export const vmCreateRunner: Runner<VmCreateParams> = {
  async run(rc, op) {
    const vm = await findVdcVmById(rc.db, op.resource_id);
    if (!vm || vm.deleted_at || vm.status !== 'pending') {
      // Its machine's addresses were taken with the create: they go back.
      await destroyMachineMadeBy(rc, op);
      return { detail: 'Nothing to provision: the VM is no longer pending' };
    }
    const { password, user_data: userData } = op.params;
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
      userData: userData ?? null,
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
