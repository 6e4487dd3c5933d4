// Row types of DNS zones, records and the outbox (migration 0100; listed in schema.ts's DB).
import type { ColumnType, Generated, Selectable } from 'kysely';

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface DnsZonesTable {
  /** `dnz_…` */
  id: string;
  /** Null: Hostcloud's own zone (an IP pool's reverse zone). */
  account_id: string | null;
  /** Lower case, no trailing dot. */
  name: string;
  kind: ColumnType<'forward' | 'reverse', 'forward' | 'reverse' | undefined, never>;
  ip_pool_id: number | null;
  nameservers: string[];
  serial: ColumnType<number, number | undefined, number>;
  synced_at: Date | null;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface DnsRecordsTable {
  /** `dnr_…` */
  id: string;
  zone_id: string;
  /** Relative to the zone; '@' is the apex. */
  name: string;
  type: string;
  content: string;
  ttl: number;
  priority: number | null;
  managed: ColumnType<boolean, boolean | undefined, boolean>;
  /** A PTR's address (removed when the address is released). */
  address: string | null;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface DnsOutboxTable {
  id: Generated<string>;
  zone_id: string;
  zone_name: string;
  action: 'sync' | 'rrset' | 'delete';
  rr_name: string | null;
  rr_type: string | null;
  /** The zone serial a record change made (0230); null on whole-zone and PTR rows. */
  serial: ColumnType<string | null, number | null | undefined, never>;
  attempts: ColumnType<number, number | undefined, number>;
  due_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface DnsSettingsTable {
  name: string;
  value: ColumnType<unknown, string, string>;
}

export type DnsZone = Selectable<DnsZonesTable>;
export type DnsRecord = Selectable<DnsRecordsTable>;
export type DnsOutboxRow = Selectable<DnsOutboxTable>;
