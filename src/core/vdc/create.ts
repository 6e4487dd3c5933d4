// VM create. Checks run in the API's check order (docs/architecture.md, "Check order") — input, then references (location, OS), then the
// pool, then node room and addresses — and the VM row (which takes its share of the pool in the
// same statement), its vdc_vm.create operation, the job and the machine's addresses commit in the
// caller's one transaction, as a server's do: a location whose address pool is short answers 422
// CAPACITY_UNAVAILABLE with nothing written, instead of a VM that fails in the worker. VMs are
// never charged: the pool is what the account pays for.
import { findLocationIdByName } from '../../db/queries/catalog.ts';
import { findServerReferences } from '../../db/queries/servers.ts';
import { lockPool } from '../../db/queries/vdc-pools.ts';
import { insertVdcVm } from '../../db/queries/vdc-vms.ts';
import type { Operation } from '../../db/schema.ts';
import { isServerLocation, requireImage } from '../catalog/customer-lists.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids.ts';
import { placeMachine, servedNodes } from '../nodes/placement.ts';
import { startOperation } from '../operations/service.ts';
import { checkUserData } from '../servers/create.ts';
import { defaultFirewall } from '../../db/default-firewall.ts';
import { newMachineId, reserveAddresses } from '../ip-pools/reserve-addresses.ts';
import { checkHostname, checkPassword } from '../servers/rules.ts';
import type { Db } from '../types.ts';
import { type Holds, quotaFailure, requireRoom } from './quota.ts';
import type { VmView } from './read.ts';
import type { VmCreateParams } from './runners/vdc_vm.create.ts';
import { checkVmSize } from './rules.ts';

export interface CreateVmInput {
  name: string;
  password: string;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  /** Where: a location id (v2), or — when it is left out — the location's name or code as v1 sends it (`location_name`). */
  location_id?: number;
  location_name?: string;
  os_version_id: number;
  /** cloud-init user data for the new machine (at most USER_DATA_MAX_BYTES), as a server takes. */
  user_data?: string;
}

export const CREATE_OPERATION = 'vdc_vm.create';

/**
 * Creates the VM (pending) with its share of the pool and queues its provisioning, in `trx`. Each
 * VM takes 1 IPv4 address, and 1 IPv6 address when the pool has IPv6 at all (a pool with IPv6
 * whose addresses are all taken refuses the VM, naming ipv6).
 */
export async function createVm(ctx: Ctx, trx: Db, input: CreateVmInput): Promise<{ view: VmView; operation: Operation }> {
  checkHostname(input.name);
  checkPassword(input.password);
  checkUserData(input.user_data);
  checkVmSize({ cpu_cores: input.cpu_cores, ram_mb: input.ram_mb, storage_gb: input.storage_gb });
  const byName = input.location_id === undefined;
  const locationId = input.location_id ?? (await findLocationIdByName(trx, input.location_name ?? '')) ?? -1;
  const refs = await findServerReferences(trx, { planId: null, locationId, osVersionId: input.os_version_id });
  if (!refs.location || !isServerLocation(refs.location)) {
    const which = byName ? `"${(input.location_name ?? '').slice(0, 64)}"` : String(input.location_id);
    throw new ApiError('LOCATION_INVALID', `Location ${which} is not available for VMs`, [
      { field: byName ? 'location_name' : 'location_id', code: 'INVALID', message: 'not a location VMs can be created in (see GET /locations)' },
    ]);
  }
  if (!refs.os || !refs.os.available) {
    throw new ApiError('OS_VERSION_INVALID', `OS version ${input.os_version_id} is not available`, [
      { field: 'os_version_id', code: 'INVALID', message: 'no such OS version (see GET /operating-systems)' },
    ]);
  }
  requireImage(refs.os, input.os_version_id, ctx.compute.capabilities?.osImages === true);
  const pool = await lockPool(trx, ctx.accountId);
  const holds: Holds = { cpu: input.cpu_cores, ram_mb: input.ram_mb, storage_gb: input.storage_gb, ipv4: 1, ipv6: pool && pool.ipv6_total > 0 ? 1 : 0 };
  requireRoom(pool, holds);
  const node = await placeMachine(trx, refs.location.id, { cpuCores: input.cpu_cores, ramMb: input.ram_mb, storageGb: input.storage_gb }, servedNodes(ctx.compute));
  const id = newId('vm');
  const vm = await insertVdcVm(trx, {
    id,
    account_id: ctx.accountId,
    name: input.name,
    location_id: refs.location.id,
    node_id: node.id,
    os_version_id: input.os_version_id,
    cpu_cores: input.cpu_cores,
    ram_mb: input.ram_mb,
    storage_gb: input.storage_gb,
    held_cpu: holds.cpu,
    held_ram_mb: holds.ram_mb,
    held_storage_gb: holds.storage_gb,
    held_ipv4: holds.ipv4,
    held_ipv6: holds.ipv6,
    created_at: ctx.now,
  }).catch((e: unknown) => {
    throw quotaFailure(e);
  });
  const operation = await startOperation(ctx, trx, {
    type: CREATE_OPERATION, resourceId: id, detail: 'Queued for provisioning', params: { password: input.password, ...(input.user_data !== undefined ? { user_data: input.user_data } : {}) } satisfies VmCreateParams,
  });
  // The machine's record and addresses under the operation's token, which the worker's create finds.
  await reserveAddresses(trx, {
    id: newMachineId(), token: operation.id, locationId: refs.location.id, hostname: input.name, cpuCores: input.cpu_cores, ramMb: input.ram_mb,
    storageGb: input.storage_gb, osSlug: refs.os.slug, sshKeys: [], node: node.name, v4: holds.ipv4, v6: holds.ipv6, primaryV6: holds.ipv6 > 0,
    firewall: defaultFirewall(holds.ipv6 > 0),
  }, 'VM');
  const osLabel = { family: refs.os.family, version: refs.os.version };
  return { view: { vm, os: refs.os.slug, power: vm.power_state, specs: { cpuCores: vm.cpu_cores, ramMb: vm.ram_mb, storageGb: vm.storage_gb }, osLabel }, operation };
}
