// VDC resources of v2: the pool (`VdcResources`), VMs (`VdcVm`), their usage
// and snapshots, shared by the VDC route files.
import { Type } from '@sinclair/typebox';
import type { PoolView } from '../../../core/vdc/pool.ts';
import { BUCKETS } from '../../../core/vdc/quota.ts';
import type { VmView } from '../../../core/vdc/read.ts';
import type { VmUsage } from '../../../core/vdc/usage.ts';
import { ts } from '../../../core/time.ts';
import type { VdcSnapshot } from '../../../db/schema.ts';
import { StringEnum, Timestamp, component, ref } from '../../schemas.ts';
import { OperationSchema } from '../servers/presenters.ts';

const POWER_STATES = ['running', 'stopped', 'starting', 'stopping', 'provisioning', 'migrating', 'error', 'unknown'] as const;
const Count = (example: number) => Type.Integer({ minimum: 0, examples: [example] });

export const VdcBucketSchema = component('VdcBucket', Type.Object({
  total: Count(16),
  used: Count(6),
  available: Count(10),
}, { description: 'One resource of the pool: what the operator set (`total`), what the VMs hold (`used`) and the rest (`available` = total − used, never negative).' }));

const bucket = ref(VdcBucketSchema);

export const VdcResourcesSchema = component('VdcResources', Type.Object({
  has_pool: Type.Boolean({ description: 'false: the account has no VDC; every bucket is zero.' }),
  cpu: bucket,
  ram_mb: bucket,
  storage_gb: bucket,
  ipv4: bucket,
  ipv6: bucket,
  bandwidth_mbit: bucket,
}, {
  description: 'The account\'s VDC resource pool. VMs take `cpu`, `ram_mb` and `storage_gb` as their specs, 1 `ipv4` address each, and 1 `ipv6` '
    + 'address each when the pool has IPv6. `bandwidth_mbit` is the VDC\'s shared uplink: no VM reserves a share, so its `used` is 0.',
}));

export function vdcResourcesView(p: PoolView) {
  const buckets = Object.fromEntries(BUCKETS.map((b) => [b, { total: p.total[b], used: p.used[b], available: p.available[b] }])) as
    Record<(typeof BUCKETS)[number], { total: number; used: number; available: number }>;
  return { has_pool: p.hasPool, ...buckets };
}

const Specs = Type.Object({
  cpu_cores: Type.Integer({ examples: [2] }),
  ram_mb: Type.Integer({ examples: [4096] }),
  storage_gb: Type.Integer({ examples: [80] }),
});

export const VdcVmSchema = component('VdcVm', Type.Object({
  id: Type.String({ examples: ['vm_7Rk2pQ9sLm4Xw1Zt'] }),
  name: Type.String({ description: 'Host name.', examples: ['db-1.example.com'] }),
  status: StringEnum(['pending', 'active', 'failed'] as const, {
    description: 'pending until provisioned, then active; failed if provisioning failed (its resources are back in the pool; delete it).',
  }),
  power_state: StringEnum(POWER_STATES, {
    description: 'The detail asks the platform (`unknown` if it does not answer in time, or for a VM not on the primary platform); lists show the last recorded state.',
  }),
  os: Type.Union([Type.String({ examples: ['ubuntu-24.04'] }), Type.Null()], { description: 'OS slug.' }),
  specs: Specs,
  primary_ip: Type.Union([Type.String({ examples: ['10.1.0.23'] }), Type.Null()], { description: 'null until provisioned.' }),
  primary_ipv6: Type.Union([Type.String({ examples: ['2001:db8:1::17'] }), Type.Null()], { description: 'null until provisioned, or when the pool has no IPv6.' }),
  created_at: Timestamp,
}, { description: 'A VM of the account\'s VDC: its size comes from the pool, and it is never charged on its own.' }));

export function vdcVmView(v: VmView) {
  return {
    id: v.vm.id,
    name: v.vm.name,
    status: v.vm.status,
    power_state: v.power,
    os: v.os,
    specs: { cpu_cores: v.specs.cpuCores, ram_mb: v.specs.ramMb, storage_gb: v.specs.storageGb },
    primary_ip: v.vm.primary_ip,
    primary_ipv6: v.vm.primary_ipv6,
    created_at: ts(v.vm.created_at),
  };
}

export const VdcVmCreatedSchema = component('VdcVmCreated', Type.Intersect([
  ref(VdcVmSchema),
  Type.Object({ operation: ref(OperationSchema) }),
], { description: 'The new VM (pending) and the `vdc_vm.create` operation provisioning it.' }));

export const VdcVmAcceptedSchema = component('VdcVmActionAccepted', Type.Object({
  operation: ref(OperationSchema),
  password: Type.Optional(Type.String({ description: 'reset_password without a password: the generated one. Shown only here, once.' })),
}, { description: 'The queued operation on the VM.' }));

export const VdcVmDeletedSchema = component('VdcVmDeleteResult', Type.Object({
  id: Type.String({ examples: ['vm_7Rk2pQ9sLm4Xw1Zt'] }),
  status: StringEnum(['deleted'] as const),
  operation: ref(OperationSchema),
}, { description: 'A deleted VM: its resources are back in the pool; the `vdc_vm.delete` operation destroys the machine.' }));

const Pct = (example: number) => Type.Number({ minimum: 0, maximum: 100, examples: [example] });

export const VdcVmUsageSchema = component('VdcVmUsage', Type.Object({
  cpu_pct: Pct(12.5),
  memory_pct: Pct(41.2),
  disk_pct: Pct(23),
  memory_used_mb: Type.Integer({ minimum: 0, description: 'memory_pct of the VM\'s RAM.', examples: [1688] }),
  disk_used_gb: Type.Number({ minimum: 0, description: 'disk_pct of the VM\'s disk.', examples: [18.4] }),
  sampled_at: { ...Timestamp, description: 'When the platform last measured.' },
}, { description: 'Utilization of a VM: the latest measurement of the platform.' }));

export function vdcVmUsageView(u: VmUsage) {
  return {
    cpu_pct: u.cpuPct, memory_pct: u.memoryPct, disk_pct: u.diskPct,
    memory_used_mb: u.memoryUsedMb, disk_used_gb: u.diskUsedGb, sampled_at: ts(u.sampledAt),
  };
}

export const VdcSnapshotSchema = component('VdcSnapshot', Type.Object({
  id: Type.Integer({ examples: [17] }),
  name: Type.String({ examples: ['before-upgrade'] }),
  status: StringEnum(['creating', 'available'] as const),
  size_gb: Type.Union([Type.Number({ examples: [9.6] }), Type.Null()], { description: 'null while the snapshot is being taken.' }),
  created_at: Timestamp,
}, { description: 'A snapshot of a VM\'s disk. Free in a VDC; kept until deleted (or until its VM is).' }));

export function vdcSnapshotView(s: VdcSnapshot) {
  return { id: s.id, name: s.name, status: s.status, size_gb: s.size_gb === null ? null : Number(s.size_gb), created_at: ts(s.created_at) };
}

export const VdcSnapshotCreatedSchema = component('VdcSnapshotCreated', Type.Object({
  id: Type.Integer({ examples: [17] }),
  name: Type.String({ examples: ['before-upgrade'] }),
  status: StringEnum(['creating'] as const),
  created_at: Timestamp,
  operation: ref(OperationSchema),
}, { description: 'A snapshot being taken, and the `vdc_vm.snapshot` operation taking it.' }));

export const VdcSnapshotDeletedSchema = component('VdcSnapshotDeleteResult', Type.Object({
  id: Type.Integer({ examples: [17] }),
  status: StringEnum(['deleted'] as const),
  operation: ref(OperationSchema),
}, { description: 'A deleted snapshot: gone from the list; the `vdc_vm.snapshot_delete` operation removes it from the platform.' }));

/** Path parameter of every VM route. */
export const VmParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'VM id (`vm_…`).', examples: ['vm_7Rk2pQ9sLm4Xw1Zt'] }) });

/** Path parameters of a VM's snapshot. */
export const VmSnapshotParams = Type.Object({
  ...VmParams.properties,
  sid: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Snapshot id.', examples: [17] }),
});

/** The note of the VDC operations this service adds to the Hosting Cloud API v2. */
export const ADDITION = '**Addition to the Hosting Cloud API v2** (v1 has this operation; v2 gains it).';
