// Row types of every table, as Kysely sees them. Money columns are *_cents (BIGINT, parsed to
// a JS number: exact up to 2^53 cents). `numeric` columns arrive as strings.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { SshKeysTable, SubUsersTable, TicketMessagesTable, TicketsTable } from './schema-account.ts';
import type { DomainsTable, SimRegistryDomainsTable, SimRegistryTransfersTable } from './schema-domains.ts';
import type { ServerReverseDnsTable, SimReverseDnsTable } from './schema-v1.ts';
import type { NodesTable } from './schema-nodes.ts';
import type { HostingNodeAccountsTable, HostingNodesTable } from './schema-hosting-nodes.ts';
import type { BillingChargesTable, BillingNoticesTable } from './schema-billing.ts';
import type { PanelLinksTable, PanelRecoveryCodesTable, PanelSessionsTable, PanelUsersTable } from './schema-panel.ts';
import type {
  AccountBillingDetailsTable, InvoiceCountersTable, InvoiceSettingsTable, InvoicesTable, PaymentRefundsTable, PaymentWebhookReceiptsTable, PaymentsTable,
  SimPaymentRefundsTable, SimPaymentsTable, TaxRatesTable,
} from './schema-payments.ts';
import type { EventsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './schema-events.ts';
import type { RegistrarContactSyncTable } from './schema-registrar.ts';
import type { AuditLogTable, StaffLinksTable, StaffMembersTable, StaffRecoveryCodesTable, StaffSessionsTable, StaffTokensTable } from './schema-staff.ts';
import type { DnsOutboxTable, DnsRecordsTable, DnsSettingsTable, DnsZonesTable } from './schema-dns.ts';

export type * from './schema-account.ts';
export type * from './schema-domains.ts';
export type * from './schema-nodes.ts';
export type * from './schema-v1.ts';
export type * from './schema-billing.ts';
export type * from './schema-panel.ts';
export type * from './schema-payments.ts';
export type * from './schema-events.ts';
export type * from './schema-dns.ts';
export type * from './schema-hosting-nodes.ts';
export type * from './schema-registrar.ts';
export type * from './schema-staff.ts';

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
  /** The sub-user the key acts for (narrowed to its permissions); null = the account itself. */
  sub_user_id: ColumnType<number | null, number | null | undefined, number | null>;
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

export interface SystemMarkersTable {
  name: string;
  created_at: CreatedAt;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

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

export type OperationStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface OperationsTable {
  id: string;
  account_id: string;
  type: string;
  status: ColumnType<OperationStatus, OperationStatus | undefined, OperationStatus>;
  resource_type: string;
  resource_id: string;
  progress_pct: Generated<number>;
  detail: Generated<string>;
  params: ColumnType<Record<string, unknown>, string | undefined, string>;
  attempts: Generated<number>;
  lease_until: Date | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  finished_at: Date | null;
  /** The operator asked a running operation to stop (POST /admin/v1/operations/{id}/cancel): it fails at its next step. */
  cancel_requested_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: CreatedAt;
  expires_at: Date;
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

/** A console link's single-use ticket (0002 as sim_console_sessions; every driver's since 0070). */
export interface ConsoleSessionsTable {
  token: string;
  vm_id: string;
  expires_at: Date;
  used_at: Date | null;
  /** When the session's terminal attached (0032): once only. */
  attached_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type WebHostingStatus = 'pending' | 'active' | 'suspended' | 'cancelled';
export type BillingCycle = 'monthly' | 'yearly';

export interface WebHostingTable {
  id: string;
  account_id: string;
  /** Normalised: lower case, IDN as punycode. */
  domain: string;
  package_id: number;
  status: ColumnType<WebHostingStatus, WebHostingStatus | undefined, WebHostingStatus>;
  billing_cycle: BillingCycle;
  /** One cycle's price, fixed at order. */
  price_cents: number;
  /** What the latest charged cycle cost: a cancel with `refund: true` gives it back. */
  last_charge_cents: number;
  period_started_at: Date;
  next_billing_at: Date;
  panel_ref: string | null;
  username: string | null;
  server_hostname: string | null;
  cancel_reason: string | null;
  cancelled_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface HostingLoginLinksTable {
  ticket: string;
  hosting_id: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface SimHostingServersTable {
  id: Generated<number>;
  hostname: string;
  location_id: number;
  capacity: number;
  created_at: CreatedAt;
}

export type SimPanelAccountState = 'creating' | 'active' | 'suspended' | 'terminated';

/** The registry's message queue as the worker read it (EPP poll): transfers' outcomes and notices for the operator. */
export interface RegistrarMessagesTable {
  id: Generated<string>;
  registrar: string;
  msg_id: string;
  queued_at: Date | null;
  received_at: Generated<Date>;
  domain: string | null;
  kind: 'transfer' | 'notice';
  text: string;
  detail: Generated<unknown>;
}

export interface SimHostingAccountsTable {
  id: string;
  request_token: string;
  server_id: number;
  username: string;
  domain: string;
  package_name: string;
  quota_mb: number;
  max_domains: number;
  contact_email: string;
  state: SimPanelAccountState;
  suspend_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  terminated_at: Date | null;
}

export interface SimHostingSsoSessionsTable {
  token: string;
  account_id: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export type NotificationStatus = 'queued' | 'sent' | 'failed';

export interface NotificationsTable {
  id: ColumnType<number, never, never>;
  /** null: a notice to a staff member, which belongs to no account. */
  account_id: string | null;
  /** What the notice is about, dotted: hosting.cancelled, ticket.answered, service.suspended… */
  kind: string;
  to_email: string;
  subject: string;
  /** Plain text. */
  body: string;
  status: ColumnType<NotificationStatus, NotificationStatus | undefined, NotificationStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  created_at: CreatedAt;
  sent_at: Date | null;
}

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
  servers: ServersTable;
  operations: OperationsTable;
  idempotency_keys: IdempotencyKeysTable;
  snapshots: SnapshotsTable;
  server_ips: ServerIpsTable;
  app_secrets: AppSecretsTable;
  sim_settings: SimSettingsTable;
  ip_pools: IpPoolsTable;
  ip_addresses: IpAddressesTable;
  ip_settings: IpSettingsTable;
  sim_reverse_dns: SimReverseDnsTable;
  server_reverse_dns: ServerReverseDnsTable;
  sim_vms: SimVmsTable;
  sim_requests: SimRequestsTable;
  sim_firewall_rules: SimFirewallRulesTable;
  sim_snapshots: SimSnapshotsTable;
  console_sessions: ConsoleSessionsTable;
  notifications: NotificationsTable;
  staff_members: StaffMembersTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_sessions: StaffSessionsTable;
  staff_links: StaffLinksTable;
  staff_tokens: StaffTokensTable;
  audit_log: AuditLogTable;
  vdc_pools: VdcPoolsTable;
  vdc_vms: VdcVmsTable;
  nodes: NodesTable;
  vdc_snapshots: VdcSnapshotsTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  sub_users: SubUsersTable;
  ssh_keys: SshKeysTable;
  domains: DomainsTable;
  sim_registry_domains: SimRegistryDomainsTable;
  sim_registry_transfers: SimRegistryTransfersTable;
  web_hosting: WebHostingTable;
  hosting_login_links: HostingLoginLinksTable;
  sim_hosting_servers: SimHostingServersTable;
  sim_hosting_accounts: SimHostingAccountsTable;
  registrar_messages: RegistrarMessagesTable;
  sim_hosting_sso_sessions: SimHostingSsoSessionsTable;
  hosting_nodes: HostingNodesTable;
  hosting_node_accounts: HostingNodeAccountsTable;
  billing_charges: BillingChargesTable;
  billing_notices: BillingNoticesTable;
  panel_users: PanelUsersTable;
  panel_recovery_codes: PanelRecoveryCodesTable;
  panel_sessions: PanelSessionsTable;
  panel_links: PanelLinksTable;
  invoice_settings: InvoiceSettingsTable;
  tax_rates: TaxRatesTable;
  account_billing_details: AccountBillingDetailsTable;
  payments: PaymentsTable;
  payment_webhook_receipts: PaymentWebhookReceiptsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  payment_refunds: PaymentRefundsTable;
  sim_payments: SimPaymentsTable;
  sim_payment_refunds: SimPaymentRefundsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  dns_zones: DnsZonesTable;
  dns_records: DnsRecordsTable;
  dns_outbox: DnsOutboxTable;
  dns_settings: DnsSettingsTable;
  registrar_contact_sync: RegistrarContactSyncTable;
}

export type Account = Selectable<AccountsTable>;
export type RegistrarMessage = Selectable<RegistrarMessagesTable>;
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
export type Server = Selectable<ServersTable>;
export type Operation = Selectable<OperationsTable>;
export type Snapshot = Selectable<SnapshotsTable>;
export type ServerIp = Selectable<ServerIpsTable>;
export type SimVm = Selectable<SimVmsTable>;
export type IpPool = Selectable<IpPoolsTable>;
export type Notification = Selectable<NotificationsTable>;
export type VdcPool = Selectable<VdcPoolsTable>;
export type VdcVm = Selectable<VdcVmsTable>;
export type VdcSnapshot = Selectable<VdcSnapshotsTable>;
export type WebHosting = Selectable<WebHostingTable>;
export type SimHostingServer = Selectable<SimHostingServersTable>;
export type SimHostingAccount = Selectable<SimHostingAccountsTable>;
