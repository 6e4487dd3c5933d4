// The notifications outbox, and one fault switch per simulated provider.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The compute switch was the only one ('fault'); each provider now has its own row.
    UPDATE sim_settings SET name = 'fault:compute' WHERE name = 'fault';

  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE sim_settings SET name = 'fault' WHERE name = 'fault:compute';
    DELETE FROM sim_settings WHERE name LIKE 'fault:%';
  `.execute(db);
}
