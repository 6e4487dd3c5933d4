// v1 schemas of VDC resources and VMs, and what every VM route shares (parameters, field renames).
import { Type } from '@sinclair/typebox';
import { CUSTOM_LIMITS } from '../../../core/servers/rules.ts';
import { Nullable } from '../schemas.ts';
import { V1_VM_STATUSES } from './views.ts';

const Int = (example: number, description?: string) => Type.Integer({ minimum: 0, examples: [example], ...(description ? { description } : {}) });
const Gb = (example: number, description?: string) => Type.Number({ minimum: 0, examples: [example], ...(description ? { description } : {}) });

export const V1VdcResources = Type.Object({
  resources: Type.Object({
    cpu_cores: Int(16), ram_gb: Gb(32), disk_gb: Int(500), ipv4_count: Int(4), ipv6_count: Int(4), bandwidth_mbit: Int(1000),
  }, { description: 'What the provider set for the VDC.' }),
  usage: Type.Object({
    cpu_used: Int(2), ram_used_gb: Gb(4), disk_used_gb: Int(80), ipv4_used: Int(1), ipv6_used: Int(1),
    bandwidth_used_mbit: Int(0, 'The uplink is shared: no VM reserves a share, so this is 0.'),
  }, { description: 'What the VMs hold.' }),
  available: Type.Object({
    cpu_available: Int(14), ram_available_gb: Gb(28), disk_available_gb: Int(420), ipv4_available: Int(3), ipv6_available: Int(3), bandwidth_available_mbit: Int(1000),
  }, { description: 'What is left for new VMs and resizes (never negative).' }),
});

const VmStatus = Type.String({
  enum: [...V1_VM_STATUSES],
  description: '`pending` until provisioned; `active` (running) or `stopped` (powered off); `failed` if provisioning failed (delete it).',
});
const VmId = Type.String({ description: 'VM id.', examples: ['vm_7Rk2pQ9sLm4Xw1Zt'] });
const Ip = Nullable(Type.String({ examples: ['10.1.0.23'] }));

export const V1VmListItem = Type.Object({
  unique_id: VmId,
  vm_name: Type.String({ examples: ['db-1.example.com'] }),
  cpu_cores: Int(2),
  ram_gb: Gb(4),
  disk_gb: Int(80),
  primary_ip: Ip,
  status: VmStatus,
  os_name: Nullable(Type.String({ examples: ['Ubuntu'] })),
  os_version: Nullable(Type.String({ examples: ['24.04'] })),
});

export const V1VmDetail = Type.Object({
  vm_id: VmId,
  vm_name: Type.String({ examples: ['db-1.example.com'] }),
  cpu_cores: Int(2),
  ram_gb: Gb(4),
  disk_gb: Int(80),
  status: VmStatus,
  primary_ip: Ip,
});

export const V1VmUsage = Type.Object({
  usage: Type.Object({
    cpu: Type.Object({ load_average: Type.Number({ minimum: 0, description: 'CPU share × vCPUs.', examples: [0.5] }) }),
    memory: Type.Object({ used_mb: Int(1688) }),
    disk: Type.Object({ used_gb: Gb(18.4) }),
  }),
});

export const V1VmSnapshot = Type.Object({
  id: Type.Integer({ examples: [17] }),
  name: Type.String({ examples: ['before-upgrade'] }),
  status: Type.String({ enum: ['creating', 'completed'], description: '`completed` once taken.' }),
});

export const VmParams = Type.Object({ vm_id: Type.String({ minLength: 1, maxLength: 64, description: 'VM id (`vm_…`).' }) });
export const VmSnapshotParams = Type.Object({
  vm_id: Type.String({ minLength: 1, maxLength: 64, description: 'VM id (`vm_…`).' }),
  snapshot_id: Type.String({ minLength: 1, maxLength: 32, description: 'Snapshot id (digits).', examples: ['17'] }),
});

/** The core's field names → v1's, for VM writes (VM names, sizes in GB, the OS by os_id, quota buckets). */
export const VM_RENAMES = {
  name: 'vm_name', ram_mb: 'ram_gb', storage_gb: 'disk_gb', os_version_id: 'os_id', cpu: 'cpu_cores', confirm_name: 'confirm_vm_name',
} as const;

/** v1 sizes: vCPUs and disk as the core's limits, RAM in whole GB within the core's MB limits. */
export const V1_SIZE_LIMITS = {
  cpu_cores: CUSTOM_LIMITS.cpu_cores,
  ram_gb: { min: Math.ceil(CUSTOM_LIMITS.ram_mb.min / 1024), max: Math.floor(CUSTOM_LIMITS.ram_mb.max / 1024) },
  disk_gb: CUSTOM_LIMITS.storage_gb,
} as const;

export const SizeField = (field: keyof typeof V1_SIZE_LIMITS, description: string, example: number) =>
  Type.Integer({ minimum: V1_SIZE_LIMITS[field].min, maximum: V1_SIZE_LIMITS[field].max, description, examples: [example] });
