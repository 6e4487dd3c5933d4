// Row types of the operator's address pools and the addresses they hand out.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt } from './schema-columns.ts';

/** An operator's address pool in a location (0002 as sim_ip_pools; the core's since 0070). */
export interface IpPoolsTable {
  id: Generated<number>;
  location_id: number;
  version: 4 | 6;
  cidr: string;
  gateway: string;
  next_offset: Generated<number>;
  created_at: CreatedAt;
}

/** An address a pool has handed out at least once: held by a machine (vm_id) or released (0070; sim_ip_leases before). */
export interface IpAddressesTable {
  address: string;
  pool_id: number;
  /** The machine (sim_vms, every driver's machine record) holding it; null once released. */
  vm_id: string | null;
  leased_at: Date | null;
  /** When it was last given back (0031): it rests IP_COOLDOWN_S before another lease. */
  released_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The core's address settings (0070): `cooldown_s`, written from IP_COOLDOWN_S by each process at start. */
export interface IpSettingsTable {
  name: string;
  value: ColumnType<unknown, string, string>;
}

export type IpPool = Selectable<IpPoolsTable>;
