// The operator's operations (/admin/v1/operations): a cancel asked of a running operation is
// recorded here, and its run stops at its next step (core/operations/execute.ts); the operator's
// list reads every account's operations newest first.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE operations ADD COLUMN cancel_requested_at timestamptz;
    CREATE INDEX operations_newest ON operations (created_at DESC, id DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS operations_newest;
    ALTER TABLE operations DROP COLUMN IF EXISTS cancel_requested_at;
  `.execute(db);
}
