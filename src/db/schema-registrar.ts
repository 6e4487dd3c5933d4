// Row types of the registrar's tables besides domains (kept apart from schema.ts, which lists them in DB).
import type { ColumnType, Generated, Selectable } from 'kysely';

/** An account whose registrant contacts at the registry wait to be brought up to date (the worker's contact outbox). */
export interface RegistrarContactSyncTable {
  account_id: string;
  version: ColumnType<string, string | undefined, string>;
  requested_at: Generated<Date>;
  due_at: ColumnType<Date, Date | string | undefined, Date | string>;
  attempts: Generated<number>;
  last_error: string | null;
  refused: Generated<boolean>;
}

export type RegistrarContactSync = Selectable<RegistrarContactSyncTable>;
