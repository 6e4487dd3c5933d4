// VDC resources and VMs as v1 shapes them: RAM and disk in GB, the pool as three objects
// (resources, usage, available), VMs named `vm_name` with `unique_id` (lists) or `vm_id` (detail).
import type { PoolView } from '../../../core/vdc/pool.ts';
import type { VmView } from '../../../core/vdc/read.ts';
import type { VmUsage } from '../../../core/vdc/usage.ts';
import type { VdcSnapshot } from '../../../db/schema.ts';

/** MB → GB as a number; whole for every VM (RAM is taken in whole GB), two decimals at most for a pool set in MB. */
export const gb = (mb: number) => Math.round((mb / 1024) * 100) / 100;

export function v1ResourcesView(p: PoolView) {
  return {
    resources: {
      cpu_cores: p.total.cpu, ram_gb: gb(p.total.ram_mb), disk_gb: p.total.storage_gb,
      ipv4_count: p.total.ipv4, ipv6_count: p.total.ipv6, bandwidth_mbit: p.total.bandwidth_mbit,
    },
    usage: {
      cpu_used: p.used.cpu, ram_used_gb: gb(p.used.ram_mb), disk_used_gb: p.used.storage_gb,
      ipv4_used: p.used.ipv4, ipv6_used: p.used.ipv6, bandwidth_used_mbit: p.used.bandwidth_mbit,
    },
    available: {
      cpu_available: p.available.cpu, ram_available_gb: gb(p.available.ram_mb), disk_available_gb: p.available.storage_gb,
      ipv4_available: p.available.ipv4, ipv6_available: p.available.ipv6, bandwidth_available_mbit: p.available.bandwidth_mbit,
    },
  };
}

export const V1_VM_STATUSES = ['pending', 'active', 'stopped', 'failed'] as const;
export type V1VmStatus = (typeof V1_VM_STATUSES)[number];

/**
 * v1 has one `status` where v2 has status and power state (as v1 servers: active|stopped): a
 * provisioned VM that is powered off reads `stopped`; otherwise the lifecycle status.
 */
export function v1VmStatus(v: VmView): V1VmStatus {
  if (v.vm.status !== 'active') return v.vm.status;
  return v.power === 'stopped' ? 'stopped' : 'active';
}

export function v1VmListItem(v: VmView) {
  return {
    unique_id: v.vm.id,
    vm_name: v.vm.name,
    cpu_cores: v.specs.cpuCores,
    ram_gb: gb(v.specs.ramMb),
    disk_gb: v.specs.storageGb,
    primary_ip: v.vm.primary_ip,
    status: v1VmStatus(v),
    os_name: v.osLabel?.family ?? null,
    os_version: v.osLabel?.version ?? null,
  };
}

export function v1VmDetail(v: VmView) {
  return {
    vm_id: v.vm.id,
    vm_name: v.vm.name,
    cpu_cores: v.specs.cpuCores,
    ram_gb: gb(v.specs.ramMb),
    disk_gb: v.specs.storageGb,
    status: v1VmStatus(v),
    primary_ip: v.vm.primary_ip,
  };
}

/**
 * v1's usage: a load average (the CPU share times the vCPUs: 50 % of 4 vCPUs is a load of 2),
 * memory in MB and disk in GB used.
 */
export function v1VmUsage(u: VmUsage) {
  return {
    usage: {
      cpu: { load_average: Math.round((u.cpuPct / 100) * u.cpuCores * 100) / 100 },
      memory: { used_mb: u.memoryUsedMb },
      disk: { used_gb: u.diskUsedGb },
    },
  };
}

/** `available` is v1's `completed`; one still being taken is `creating`. */
export function v1VmSnapshot(s: VdcSnapshot) {
  return { id: s.id, name: s.name, status: s.status === 'available' ? 'completed' as const : 'creating' as const };
}
