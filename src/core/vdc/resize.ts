// VM resize: new vCPU, RAM and a disk that only grows, taken from (or given back to) the pool —
// never charged. The VM holds the larger of its old and new size in each bucket from the moment the
// resize is accepted (so two resizes can never promise the same capacity twice) until it ends: the
// completion keeps the new size, a final failure the old one (vdc/runners/vdc_vm.resize.ts).
import { lockPool } from '../../db/queries/vdc-pools.ts';
import { updateVdcVmRow } from '../../db/queries/vdc-vms.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { withCapacityCheck } from '../nodes/placement.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import type { VmActionInput, VmActionResult } from './action-types.ts';
import { lockVm, requireActiveVm } from './guards.ts';
import { quotaFailure, requireRoom } from './quota.ts';
import { checkVmSize } from './rules.ts';
import type { VmResizeParams } from './runners/vdc_vm.resize.ts';

export const RESIZE_OPERATION = 'vdc_vm.resize';

export const specText = (s: MachineSpec) => `${s.cpuCores} vCPU, ${s.ramMb / 1024} GB RAM, ${s.storageGb} GB disk`;

export async function resizeVm(ctx: Ctx, trx: Db, id: string, input: VmActionInput): Promise<VmActionResult> {
  const { cpu_cores: cpu, ram_mb: ram, storage_gb: disk } = input;
  if (cpu === undefined && ram === undefined && disk === undefined) throw invalid('body', 'give at least one of cpu_cores, ram_mb, storage_gb');
  checkVmSize({ cpu_cores: cpu, ram_mb: ram, storage_gb: disk });
  const vm = await lockVm(ctx, trx, id);
  if (disk !== undefined && disk < vm.storage_gb) throw invalid('storage_gb', `disks only grow: must be at least ${vm.storage_gb}`);
  const previous: MachineSpec = { cpuCores: vm.cpu_cores, ramMb: vm.ram_mb, storageGb: vm.storage_gb };
  const spec: MachineSpec = { cpuCores: cpu ?? previous.cpuCores, ramMb: ram ?? previous.ramMb, storageGb: disk ?? previous.storageGb };
  if (spec.cpuCores === previous.cpuCores && spec.ramMb === previous.ramMb && spec.storageGb === previous.storageGb) {
    throw invalid('body', `nothing to change: the VM already has ${specText(previous)}`);
  }
  await requireActiveVm(trx, vm);
  const params: VmResizeParams = { spec, previous };
  const operation = await startOperation(ctx, trx, {
    type: RESIZE_OPERATION, resourceId: id, params, detail: `Queued: resize to ${specText(spec)}`,
  });
  // Held during the resize: the larger of old and new in each bucket.
  const held = { cpu: Math.max(previous.cpuCores, spec.cpuCores), ram_mb: Math.max(previous.ramMb, spec.ramMb), storage_gb: Math.max(previous.storageGb, spec.storageGb) };
  const pool = await lockPool(trx, ctx.accountId);
  requireRoom(pool, { cpu: held.cpu - vm.held_cpu, ram_mb: held.ram_mb - vm.held_ram_mb, storage_gb: held.storage_gb - vm.held_storage_gb });
  // The growth is held on the VM's node too (migration 0010): no room there is CAPACITY_UNAVAILABLE.
  const growth = { cpuCores: held.cpu - vm.held_cpu, ramMb: held.ram_mb - vm.held_ram_mb, storageGb: held.storage_gb - vm.held_storage_gb };
  await withCapacityCheck(vm.location_id, growth, () => updateVdcVmRow(trx, id, { held_cpu: held.cpu, held_ram_mb: held.ram_mb, held_storage_gb: held.storage_gb })).catch((e: unknown) => {
    throw quotaFailure(e);
  });
  return { operation };
}
