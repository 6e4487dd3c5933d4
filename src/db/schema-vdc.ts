// Row types of VDCs: an account's resource pool, its VMs and their snapshots.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';
import type { PowerState } from './schema-servers.ts';

export interface VdcPoolsTable {
  account_id: string;
  cpu_total: Generated<number>;
  ram_mb_total: Generated<number>;
  storage_gb_total: Generated<number>;
  ipv4_total: Generated<number>;
  ipv6_total: Generated<number>;
  bandwidth_mbit_total: Generated<number>;
  /** The *_used counters move only through VM rows (a trigger); never written directly. */
  cpu_used: ColumnType<number, never, never>;
  ram_mb_used: ColumnType<number, never, never>;
  storage_gb_used: ColumnType<number, never, never>;
  ipv4_used: ColumnType<number, never, never>;
  ipv6_used: ColumnType<number, never, never>;
  /** Monthly price of the pool for recurring billing; null = not billed. */
  monthly_price_cents: number | null;
  /** Recurring billing: the first billed instant (its day of month anchors the periods) and the next charge. */
  billing_anchor_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  next_billing_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type VdcVmStatus = 'pending' | 'active' | 'failed';

export interface VdcVmsTable {
  id: string;
  account_id: string;
  name: string;
  status: ColumnType<VdcVmStatus, VdcVmStatus | undefined, VdcVmStatus>;
  power_state: ColumnType<PowerState, PowerState | undefined, PowerState>;
  location_id: number;
  os_version_id: number | null;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  held_cpu: number;
  held_ram_mb: number;
  held_storage_gb: number;
  held_ipv4: number;
  held_ipv6: number;
  provider_ref: string | null;
  primary_ip: string | null;
  primary_ipv6: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
  node_id: ColumnType<number | null, number | null | undefined, number | null>;
  migration_node_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface VdcSnapshotsTable {
  id: Generated<number>;
  account_id: string;
  vm_id: string;
  name: string;
  status: ColumnType<'creating' | 'available', 'creating' | 'available' | undefined, 'creating' | 'available'>;
  size_gb: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  os_version_id: number | null;
  provider_ref: string | null;
  created_at: CreatedAt;
  deleted_at: Date | null;
}

export type VdcPool = Selectable<VdcPoolsTable>;
export type VdcVm = Selectable<VdcVmsTable>;
export type VdcSnapshot = Selectable<VdcSnapshotsTable>;
