// Row types of operations (long-running work, run by the worker) and idempotency keys.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CreatedAt, UpdatedAt } from './schema-columns.ts';

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

export type Operation = Selectable<OperationsTable>;
