// Row types of the catalog: what the operator sells and customers read (plans, locations, OS
// versions, TLD prices, hosting packages, departments, reseller tiers, unit prices, v1 packages).
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface LocationsTable {
  id: Generated<number>;
  name: string;
  code: string;
  country: string;
  /** Which compute provider serves this location ("primary" routes to the main platform). */
  provider: string;
  available: Generated<boolean>;
}

export interface PlansTable {
  id: Generated<number>;
  name: string;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  bandwidth_gb: number;
  price_cents: number;
  available: Generated<boolean>;
}

export interface OperatingSystemsTable {
  id: Generated<number>;
  family: string;
  version: string;
  slug: string;
  available: Generated<boolean>;
  /** The LXD image (alias or fingerprint) servers of this OS are built from (0030); null: none set. */
  image: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TldPricesTable {
  tld: string;
  register_cents: number;
  renewal_cents: number;
  transfer_cents: number;
  supports_whois_privacy: Generated<boolean>;
  years_min: Generated<number>;
  years_max: Generated<number>;
  /** The registry needs the registrant's contact at registration. */
  requires_contact: Generated<boolean>;
}

export interface HostingPackagesTable {
  id: Generated<number>;
  name: string;
  disk_quota_mb: number;
  max_domains: number;
  monthly_price_cents: number;
  yearly_price_cents: number;
  active: Generated<boolean>;
}

export interface DepartmentsTable {
  id: Generated<number>;
  name: string;
  email: string;
  active: Generated<boolean>;
}

export interface ResellerTiersTable {
  id: Generated<number>;
  min_servers: number;
  max_servers: number | null;
  discount_percentage: ColumnType<string, string | number, string | number>;
}

export interface UnitPricesTable {
  unit: string;
  price_cents: number;
}

export interface EmailPackagesTable {
  id: Generated<number>;
  name: string;
  disk_quota_mb: number;
  max_accounts: number;
  monthly_price_cents: number;
}

export interface ColocationPackagesTable {
  id: Generated<number>;
  name: string;
  type: string;
  monthly_price_cents: number;
}

export interface DedicatedPackagesTable {
  id: Generated<number>;
  name: string;
  cpu_cores: number;
  ram_gb: number;
  storage_gb: number;
  monthly_price_cents: number;
}

export interface IpSubnetPackagesTable {
  id: Generated<number>;
  name: string;
  subnet_size: number;
  monthly_price_cents: number;
}

export type Location = Selectable<LocationsTable>;
export type Plan = Selectable<PlansTable>;
export type OperatingSystem = Selectable<OperatingSystemsTable>;
export type TldPrice = Selectable<TldPricesTable>;
export type HostingPackage = Selectable<HostingPackagesTable>;
export type Department = Selectable<DepartmentsTable>;
export type ResellerTier = Selectable<ResellerTiersTable>;
export type UnitPrice = Selectable<UnitPricesTable>;
