// Row types of the native hosting driver's nodes and accounts (migration 0110), and of the
// customer's hosting page: its sessions and the simulated panel's databases (migration 0160).
import type { ColumnType, Generated, Selectable } from 'kysely';

export type HostingNodeStatus = 'enabled' | 'disabled';
export type HostingNodeAccountState = 'creating' | 'active' | 'suspended' | 'terminated';

export interface HostingNodesTable {
  id: Generated<number>;
  name: string;
  location_id: number | null;
  host: string;
  port: ColumnType<number, number | undefined, number>;
  ssh_user: ColumnType<string, string | undefined, string>;
  http_port: ColumnType<number, number | undefined, number>;
  /** `SHA256:<base64>` of the host key pinned when the node was added. */
  host_key: string;
  status: ColumnType<HostingNodeStatus, HostingNodeStatus | undefined, HostingNodeStatus>;
  max_accounts: ColumnType<number, number | undefined, number>;
  /** The operator's overrides of the node's paths and commands (jsonb; see providers/hosting/native/node-config.ts). */
  config: ColumnType<unknown, string | undefined, string>;
  missing: ColumnType<string[], string[] | undefined, string[]>;
  disk_total_mb: ColumnType<number | null, number | null | undefined, number | null>;
  disk_free_mb: ColumnType<number | null, number | null | undefined, number | null>;
  quotas: ColumnType<boolean, boolean | undefined, boolean>;
  checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface HostingNodeAccountsTable {
  id: string;
  node_id: number;
  request_token: string;
  username: string;
  domain: string;
  quota_mb: number;
  max_databases: ColumnType<number, number | undefined, number>;
  state: ColumnType<HostingNodeAccountState, HostingNodeAccountState | undefined, HostingNodeAccountState>;
  quota_enforced: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type HostingNode = Selectable<HostingNodesTable>;
export type HostingNodeAccount = Selectable<HostingNodeAccountsTable>;

/** What a hosting page session may do: read, or also reset passwords and create and drop databases. */
export type HostingPageAccess = 'read' | 'write';

export interface HostingPageSessionsTable {
  /** SHA-256 of the hc_hosting cookie's token. */
  id: string;
  /** Binds the session's CSRF tokens; never a credential. */
  public_id: string;
  hosting_id: string;
  account_id: string;
  sub_user_id: number | null;
  access: HostingPageAccess;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
}

export interface SimHostingDatabasesTable {
  account_id: string;
  name: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type HostingPageSession = Selectable<HostingPageSessionsTable>;
