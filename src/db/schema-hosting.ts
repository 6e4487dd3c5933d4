// Row types of web hosting, its single-use panel logins and the simulated hosting panel.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';
import type { HostingPageAccess } from './schema-hosting-nodes.ts';

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
  /** What the page opened with the link may do: the access of whoever made it (migration 0160). */
  access: ColumnType<HostingPageAccess, HostingPageAccess | undefined, never>;
  sub_user_id: ColumnType<number | null, number | null | undefined, never>;
}

export interface SimHostingServersTable {
  id: Generated<number>;
  hostname: string;
  location_id: number;
  capacity: number;
  created_at: CreatedAt;
}

export type SimPanelAccountState = 'creating' | 'active' | 'suspended' | 'terminated';

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

export type WebHosting = Selectable<WebHostingTable>;
export type SimHostingServer = Selectable<SimHostingServersTable>;
export type SimHostingAccount = Selectable<SimHostingAccountsTable>;
