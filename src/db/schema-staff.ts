// Row types of the staff tables and the audit log (migration 0190).
import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export type StaffRole = 'owner' | 'admin' | 'support' | 'billing' | 'readonly';
export type StaffStatus = 'active' | 'disabled';

export interface StaffMembersTable {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  status: ColumnType<StaffStatus, StaffStatus | undefined, StaffStatus>;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface StaffRecoveryCodesTable {
  staff_id: string;
  code_hash: string;
  used_at: Date | null;
}

export type StaffSessionStage = 'totp' | 'enrol' | 'full';

export interface StaffSessionsTable {
  id: string;
  public_id: string;
  staff_id: string;
  stage: StaffSessionStage;
  ip: string;
  user_agent: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface StaffLinksTable {
  token_hash: string;
  staff_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface StaffTokensTable {
  id: string;
  staff_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  ip_allowlist: string[] | null;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export type AuditActorType = 'staff' | 'admin_token' | 'system';

export interface AuditLogTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | undefined, never>;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_email: string | null;
  ip: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  changes: ColumnType<Record<string, unknown>, string, never>;
  request_id: string | null;
}

export type StaffMember = Selectable<StaffMembersTable>;
export type StaffSession = Selectable<StaffSessionsTable>;
export type StaffToken = Selectable<StaffTokensTable>;
export type AuditRow = Selectable<AuditLogTable>;
