// Row types of the account's extras: support tickets and their threads, sub-users, SSH keys
// (kept apart from schema.ts, which lists them in DB).
import type { ColumnType, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

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
}

export interface TicketMessagesTable {
  id: ColumnType<number, never, never>;
  ticket_id: string;
  author: 'customer' | 'staff';
  /** A staff note: never shown to the customer. */
  internal: ColumnType<boolean, boolean | undefined, boolean>;
  body: string;
  created_at: CreatedAt;
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
export type SubUser = Selectable<SubUsersTable>;
export type SshKey = Selectable<SshKeysTable>;
