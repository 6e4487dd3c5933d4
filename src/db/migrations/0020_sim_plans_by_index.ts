// The simulated platform's create plans its lookups by index whatever the statistics say.
//
// sim_create_vm and sim_lease_addresses (0016, 0018) run under the location's address-pool locks.
// Their statements are planned once per connection (PL/pgSQL caches them, as generic plans on the
// worker's connections) with the statistics of that moment: on a platform analyzed while it had a
// few machines — a fresh database, or any where autovacuum is off, as on node-svc's PostgreSQL —
// the free-address lookup and the machine's update were planned as sequential scans and stayed
// so while the tables grew. Every create then read every lease and machine with the pool locked,
// and the creates of a location queued behind those scans (3,000 creates read 45 million lease
// rows). With sequential scans disabled inside the two functions their plans take the indexes
// (sim_ip_leases_free, the primary keys) from the start; no statement in them needs a scan.
import { type Kysely, sql } from 'kysely';

const FUNCTIONS = [
  'sim_lease_addresses(int, int, text, int)',
  'sim_create_vm(text, text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const f of FUNCTIONS) await sql`ALTER FUNCTION ${sql.raw(f)} SET enable_seqscan = off`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const f of FUNCTIONS) await sql`ALTER FUNCTION ${sql.raw(f)} RESET enable_seqscan`.execute(db);
}
