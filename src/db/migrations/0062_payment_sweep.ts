// The worker's payment sweep (src/core/payments/sweep.ts): when a pending payment was last asked
// about at the provider, so each is asked again only after a while, and the pending payments it
// looks through, oldest first.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE payments ADD COLUMN checked_at timestamptz;
    CREATE INDEX payments_pending ON payments (created_at) WHERE status = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS payments_pending;
    ALTER TABLE payments DROP COLUMN IF EXISTS checked_at;
  `.execute(db);
}
