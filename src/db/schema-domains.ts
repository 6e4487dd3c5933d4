// Row types of domains and the simulated registrar's registry (kept apart from schema.ts, which
// lists them in DB).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';

export type DomainStatus = 'pending' | 'active' | 'transfer_pending' | 'expired' | 'cancelled';

export interface DomainsTable {
  id: string;
  account_id: string;
  /** ASCII (punycode), lower case. */
  name: string;
  tld: string;
  status: ColumnType<DomainStatus, DomainStatus | undefined, DomainStatus>;
  auto_renew: boolean;
  transfer_lock: boolean;
  whois_privacy: boolean;
  registration_years: number;
  nameservers: string[];
  service_id: string;
  registrar: string;
  provider_ref: string | null;
  auth_code: string | null;
  registered_at: Date | null;
  expires_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SimRegistryDomainsTable {
  name: string;
  sponsor: string;
  roid: string;
  auth_code: string;
  nameservers: ColumnType<string[], string[] | undefined, string[]>;
  transfer_lock: ColumnType<boolean, boolean | undefined, boolean>;
  whois_privacy: ColumnType<boolean, boolean | undefined, boolean>;
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Date;
  updated_at: UpdatedAt;
}

export interface SimRegistryTransfersTable {
  id: Generated<number>;
  token: string;
  name: string;
  years: number;
  from_sponsor: string;
  state: ColumnType<'pending' | 'completed' | 'rejected', 'pending' | 'completed' | 'rejected' | undefined, 'pending' | 'completed' | 'rejected'>;
  requested_at: CreatedAt;
  approve_at: Date;
  finished_at: Date | null;
  reason: string | null;
}

export type Domain = Selectable<DomainsTable>;
export type SimRegistryDomain = Selectable<SimRegistryDomainsTable>;
export type SimRegistryTransfer = Selectable<SimRegistryTransfersTable>;

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

export type RegistrarMessage = Selectable<RegistrarMessagesTable>;
