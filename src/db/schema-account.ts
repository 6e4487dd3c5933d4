// Row types of accounts: the account and its API keys, support tickets and their threads,
// sub-users, SSH keys (schema.ts lists them in DB).
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';

export type TicketStatus = 'open' | 'answered' | 'customer_reply' | 'in_progress' | 'pending' | 'closed';
export type TicketPriority = 'low' | 'medium' | 'high' | 'urgent';

export interface TicketsTable {
  /** The ticket number. */
  id: string;
  account_id: string;
  subject: string;
  department_id: number | null;
  priority: ColumnType<TicketPriority, TicketPriority | undefined, TicketPriority>;
  status: ColumnType<TicketStatus, TicketStatus | undefined, TicketStatus>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  closed_at: Date | null;
  deleted_at: Date | null;
  /** The staff member working on it (0250); staff's business, never shown to the customer. */
  assignee_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TicketMessagesTable {
  id: ColumnType<number, never, never>;
  ticket_id: string;
  author: 'customer' | 'staff';
  /** A staff note: never shown to the customer. */
  internal: ColumnType<boolean, boolean | undefined, boolean>;
  body: string;
  created_at: CreatedAt;
  /** The member who wrote a staff message (0250); null before 0250 and for ADMIN_TOKEN. */
  staff_id: ColumnType<string | null, string | null | undefined, never>;
}

/** A support answer saved for reuse (0250); `department_id` null: offered in every department. */
export interface CannedRepliesTable {
  id: ColumnType<number, never, never>;
  title: string;
  body: string;
  department_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type SubUserStatus = 'pending' | 'active' | 'inactive';

export interface SubUsersTable {
  id: ColumnType<number, never, never>;
  account_id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  phone_country_code: string | null;
  status: ColumnType<SubUserStatus, SubUserStatus | undefined, SubUserStatus>;
  /** Scope names. */
  permissions: ColumnType<string[], string[] | undefined, string[]>;
  password_hash: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

export interface SshKeysTable {
  id: ColumnType<number, never, never>;
  account_id: string;
  name: string;
  /** Normalised: "type base64[ comment]". */
  public_key: string;
  /** The OpenSSH name: ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa… */
  key_type: string;
  bits: number;
  /** SHA256:… as ssh-keygen -l prints it. */
  fingerprint: string;
  created_at: CreatedAt;
}

export type Ticket = Selectable<TicketsTable>;
export type TicketMessage = Selectable<TicketMessagesTable>;
export type CannedReply = Selectable<CannedRepliesTable>;
export type SubUser = Selectable<SubUsersTable>;
export type SshKey = Selectable<SshKeysTable>;

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

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
