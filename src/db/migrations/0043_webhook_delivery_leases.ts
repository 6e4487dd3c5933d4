// Per-endpoint delivery limits across worker processes (jobs/webhook-sender.ts): a claimed
// delivery carries its lease's end, so every sender's claim counts the deliveries of an endpoint
// that some sender has in flight now, not only its own. Cleared when the attempt is recorded; a
// lease that lapsed (its sender died) no longer counts. The partial index holds only claimed
// pending rows: the count reads a few rows per endpoint, whatever the endpoint's history.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz;
    CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (webhook_id, leased_until)
      WHERE status = 'pending' AND leased_until IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX webhook_deliveries_leased;
    ALTER TABLE webhook_deliveries DROP COLUMN leased_until;
  `.execute(db);
}
