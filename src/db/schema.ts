// Row types of every table, as Kysely sees them. Money columns are *_cents (BIGINT, parsed to
// a JS number: exact up to 2^53 cents). `numeric` columns arrive as strings.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AccountsTable {
  id: string;
  email: string;
  name: string;
  company: string | null;
  phone: string | null;
  country: string | null;
  status: 'active' | 'suspended' | 'closed';
  /** Changed only by the ledger trigger; never written directly. */
  balance_cents: ColumnType<number, never, never>;
  is_reseller: Generated<boolean>;
  discount_type: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type TransactionType = 'deposit' | 'withdraw' | 'refund';

export interface TransactionsTable {
  id: Generated<number>;
  account_id: string;
  type: TransactionType;
  amount_cents: number;
  /** Filled by the trigger that applies the row to the balance. */
  balance_after_cents: ColumnType<number, never, never>;
  description: string;
  status: Generated<string>;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  is_test: boolean;
  /** null = every scope. */
  scopes: string[] | null;
  ip_allowlist: string[];
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: CreatedAt;
}

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
}

export interface TldPricesTable {
  tld: string;
  register_cents: number;
  renewal_cents: number;
  transfer_cents: number;
  supports_whois_privacy: Generated<boolean>;
  years_min: Generated<number>;
  years_max: Generated<number>;
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

export interface SystemMarkersTable {
  name: string;
  created_at: CreatedAt;
}

export interface DB {
  accounts: AccountsTable;
  transactions: TransactionsTable;
  api_keys: ApiKeysTable;
  locations: LocationsTable;
  plans: PlansTable;
  operating_systems: OperatingSystemsTable;
  tld_prices: TldPricesTable;
  hosting_packages: HostingPackagesTable;
  departments: DepartmentsTable;
  reseller_tiers: ResellerTiersTable;
  unit_prices: UnitPricesTable;
  email_packages: EmailPackagesTable;
  colocation_packages: ColocationPackagesTable;
  dedicated_packages: DedicatedPackagesTable;
  ip_subnet_packages: IpSubnetPackagesTable;
  system_markers: SystemMarkersTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type Transaction = Selectable<TransactionsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type Location = Selectable<LocationsTable>;
export type Plan = Selectable<PlansTable>;
export type OperatingSystem = Selectable<OperatingSystemsTable>;
export type TldPrice = Selectable<TldPricesTable>;
export type HostingPackage = Selectable<HostingPackagesTable>;
export type Department = Selectable<DepartmentsTable>;
export type ResellerTier = Selectable<ResellerTiersTable>;
export type UnitPrice = Selectable<UnitPricesTable>;
