// Row types of the customer panel's tables (migration 0050).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';

export interface PanelUsersTable {
  id: Generated<number>;
  account_id: string;
  /** null: the account's owner. */
  sub_user_id: number | null;
  email: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PanelRecoveryCodesTable {
  user_id: number;
  code_hash: string;
  used_at: Date | null;
}

export type PanelSessionStage = 'totp' | 'full';

export interface PanelSessionsTable {
  id: string;
  public_id: string;
  user_id: number;
  stage: PanelSessionStage;
  ip: string;
  user_agent: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Date;
  revoked_at: Date | null;
  /** The staff member signed in as the customer (impersonation, migration 0255); null otherwise. */
  impersonator_staff_id: ColumnType<string | null, string | null | undefined, never>;
  /** Why the staff member signed in as the customer (3–500 characters). */
  reason: ColumnType<string | null, string | null | undefined, never>;
  /** An impersonation that may read only (the member's role may not write to customers). */
  read_only: ColumnType<boolean, boolean | undefined, never>;
  /** When the impersonation's end was audited; null while it runs (or ended, not yet audited). */
  end_audited_at: ColumnType<Date | null, never, Date>;
}

/** A single-use link to start an impersonation (migration 0255): its ticket's SHA-256. */
export interface ImpersonationLinksTable {
  ticket_hash: string;
  account_id: string;
  user_id: number;
  staff_id: string;
  reason: string;
  read_only: boolean;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export type PanelLinkKind = 'invitation' | 'password_reset' | 'email_verification';

export interface PanelLinksTable {
  token_hash: string;
  kind: PanelLinkKind;
  user_id: number;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export type PanelUser = Selectable<PanelUsersTable>;
export type PanelSession = Selectable<PanelSessionsTable>;
export type PanelLink = Selectable<PanelLinksTable>;
