// Row types of the hypervisor nodes (migration 0010).
import type { ColumnType, Generated, Selectable } from 'kysely';

export type NodeStatus = 'active' | 'draining' | 'disabled';
export type CpuVendor = 'intel' | 'amd';

export interface NodesTable {
  id: Generated<number>;
  location_id: number;
  name: string;
  cpu_vendor: CpuVendor;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  status: ColumnType<NodeStatus, NodeStatus | undefined, NodeStatus>;
  used_cpu: ColumnType<number, never, never>;
  used_ram_mb: ColumnType<number, never, never>;
  used_storage_gb: ColumnType<number, never, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** How the LXD driver reaches the node (unix:/… or https://…); null on the simulated platform (0030). */
  endpoint: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 of the node's pinned server certificate (https endpoints). */
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
}

export type Node = Selectable<NodesTable>;
