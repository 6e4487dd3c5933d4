// The web console: opening a console link (spending its ticket) serves a terminal page, whose
// WebSocket then attaches to the machine's console once. `attached_at` makes that attach single
// use across every API process, as `used_at` does for the link.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sim_console_sessions ADD COLUMN attached_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sim_console_sessions DROP COLUMN attached_at`.execute(db);
}
