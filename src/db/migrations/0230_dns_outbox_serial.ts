// Each record change's outbox row keeps the zone serial it made, so that a push announces (SOA)
// the serial of the newest change it carries — never one whose changes are still queued, which a
// secondary would take as "nothing more to transfer" for good.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE dns_outbox ADD COLUMN serial bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE dns_outbox DROP COLUMN serial`.execute(db);
}
