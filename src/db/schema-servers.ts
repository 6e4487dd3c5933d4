// Row types of servers: the server, its snapshots, its extra addresses and console tickets.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';

export type ServerStatus = 'pending' | 'active' | 'suspended' | 'cancelled';

export type PowerState = 'running' | 'stopped' | 'starting' | 'stopping' | 'provisioning' | 'migrating' | 'error' | 'unknown';

/** The primary network as the provider reported it (jsonb). */
export interface ServerNetwork {
  ipv4: { address: string; gateway: string; netmask: string; subnet: string } | null;
  ipv6: { address: string; gateway: string | null; subnet: string } | null;
}

export interface ServersTable {
  id: string;
  account_id: string;
  name: string;
  status: ColumnType<ServerStatus, ServerStatus | undefined, ServerStatus>;
  power_state: ColumnType<PowerState, PowerState | undefined, PowerState>;
  location_id: number;
  os_version_id: number | null;
  plan_id: number | null;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  price_cents: number;
  cycle: Generated<string>;
  period_started_at: Date;
  next_billing_at: Date;
  source_snapshot_id: number | null;
  provider_ref: string | null;
  network: ColumnType<ServerNetwork | null, string | null | undefined, string | null>;
  /** The monthly reseller discount the server holds (price_cents is the list price). */
  discount_cents: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
  /** The hypervisor node it runs on (0010); null for servers made before nodes existed. */
  node_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** While a migration runs: the node it goes to (held there too). */
  migration_node_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** What a running resize holds on the node beyond the recorded size: its growth (0015); 0 otherwise. */
  resize_hold_cpu: Generated<number>;
  resize_hold_ram_mb: Generated<number>;
  resize_hold_storage_gb: Generated<number>;
}

export interface SnapshotsTable {
  id: Generated<number>;
  account_id: string;
  server_id: string;
  name: string;
  status: ColumnType<'creating' | 'available', 'creating' | 'available' | undefined, 'creating' | 'available'>;
  size_gb: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  monthly_fee_cents: number;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  os_version_id: number | null;
  provider_ref: string | null;
  created_at: CreatedAt;
  deleted_at: Date | null;
}

export interface ServerIpsTable {
  id: Generated<number>;
  server_id: string;
  version: 4 | 6;
  address: string | null;
  price_cents: number;
  created_at: CreatedAt;
  released_at: Date | null;
}

/** A console link's single-use ticket (0002 as sim_console_sessions; every driver's since 0070). */
export interface ConsoleSessionsTable {
  token: string;
  vm_id: string;
  expires_at: Date;
  used_at: Date | null;
  /** When the session's terminal attached (0032): once only. */
  attached_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type Server = Selectable<ServersTable>;
export type Snapshot = Selectable<SnapshotsTable>;
export type ServerIp = Selectable<ServerIpsTable>;
