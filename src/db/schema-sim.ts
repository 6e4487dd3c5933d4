// Row types of the simulated compute platform (its machines, firewall, snapshots, fault switch).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt } from './schema-columns.ts';
import type { PowerState } from './schema-servers.ts';

export type SimFaultMode = 'none' | 'upstream_error' | 'capacity_unavailable' | 'timeout';

/** A simulated provider's fault switch (sim_settings 'fault:compute' | 'fault:registrar' | 'fault:hosting'). */
export interface SimFault {
  mode: SimFaultMode;
  /** How many more calls fail; null = until cleared. */
  remaining: number | null;
  /** Method names of that provider that fail (src/providers/names.ts); empty = every call. */
  calls: string[];
}

export interface SimSettingsTable {
  name: string;
  value: ColumnType<unknown, string, string>;
}

export interface SimVmsTable {
  id: string;
  request_token: string;
  location_id: number;
  hostname: string;
  power: PowerState;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  os_slug: string | null;
  ipv4: string | null;
  ipv6: string | null;
  created_at: CreatedAt;
  destroyed_at: Date | null;
  /** OpenSSH public keys installed at create. */
  ssh_keys: ColumnType<string[], string[] | undefined, string[]>;
  /** The host it runs on (the node's name); null for machines made before nodes existed. */
  node: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its firewall rules by position (0018); null: they are rows of sim_firewall_rules (older machines). */
  firewall: ColumnType<SimFirewallRuleValue[] | null, string | null | undefined, string | null>;
}

/** A rule of a simulated machine's firewall, as sim_vms.firewall holds it. */
export interface SimFirewallRuleValue {
  position: number;
  direction: string;
  protocol: string;
  port: string | null;
  source: string;
  action: string;
}

export interface SimRequestsTable {
  token: string;
  result: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

/** Rules of machines made before 0018 (newer ones keep them in sim_vms.firewall). */
export interface SimFirewallRulesTable extends SimFirewallRuleValue {
  id: Generated<number>;
  vm_id: string;
}

export interface SimSnapshotsTable {
  id: string;
  vm_id: string;
  size_gb: ColumnType<string, string | number, string | number>;
  os_slug: string | null;
  created_at: CreatedAt;
}

export type SimVm = Selectable<SimVmsTable>;
