// A VM's utilization, read live from the platform: CPU, memory and disk in percent, what that is
// in MB and GB of the VM's size, and when it was measured. Unlike the detail there is no
// last-known value to fall back on, so a failing or silent platform is the customer's UPSTREAM_ERROR.
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { liveRead } from '../servers/platform-read.ts';
import { requireVm } from './guards.ts';

export interface VmUsage {
  cpuPct: number;
  memoryPct: number;
  diskPct: number;
  memoryUsedMb: number;
  diskUsedGb: number;
  /** The VM's size the shares are of. */
  cpuCores: number;
  ramMb: number;
  storageGb: number;
  sampledAt: Date;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function getVmUsage(ctx: Ctx, vmId: string): Promise<VmUsage> {
  const vm = await requireVm(ctx, vmId);
  if (vm.status !== 'active' || vm.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', `VM ${vm.id} is ${vm.status} and has no machine to measure${vm.status === 'pending' ? '; retry once it is active' : ''}`);
  }
  const ref = vm.provider_ref;
  const m = await liveRead(() => ctx.compute.metrics(ref), ctx.providerTimeoutMs, 'metrics');
  return {
    cpuPct: m.cpu_pct,
    memoryPct: m.memory_pct,
    diskPct: m.disk_pct,
    memoryUsedMb: Math.round((vm.ram_mb * m.memory_pct) / 100),
    diskUsedGb: round2((vm.storage_gb * m.disk_pct) / 100),
    cpuCores: vm.cpu_cores,
    ramMb: vm.ram_mb,
    storageGb: vm.storage_gb,
    sampledAt: m.sampled_at,
  };
}
