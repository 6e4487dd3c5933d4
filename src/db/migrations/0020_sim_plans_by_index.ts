// The simulated platform's create reads leases and machines by index whatever the statistics say.
//
// sim_create_vm and sim_lease_addresses (0016, 0018) run under the location's address-pool locks.
// Their statements are planned once per connection (PL/pgSQL caches them, as generic plans on the
// worker's connections) with the statistics of that moment: on a platform analyzed while it had a
// few machines — a fresh database, or any where autovacuum is off, as on node-svc's PostgreSQL —
// the free-address lookup and the machine's update were planned as sequential scans and stayed
// so while the tables grew. Every create then read every lease and machine with the pool locked,
// and the creates of a location queued behind those scans (3,000 creates read 45 million lease
// rows). Now:
//
// - Sequential scans are disabled inside the two functions: their plans take the indexes from the
//   start (every statement in them has one).
// - The free-address lookup orders by `address + 0` rather than `address`: the same order, but
//   one no index gives. Ordered by the column, the planner walked the primary key in address
//   order filtering for free leases (by an incremental sort even with a second sort key), reading
//   every lease made so far; now it finds the free ones by sim_ip_leases_free (pool_id, free
//   only) and sorts those few.
import { type Kysely, sql } from 'kysely';
import { up as restoreLeaseFunctions } from './0016_sim_lease_function.ts';

const LEASE = 'sim_lease_addresses(int, int, text, int)';
const CREATE = 'sim_create_vm(text, text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)';
const FREE_ORDER = 'ORDER BY address LIMIT 1 FOR UPDATE SKIP LOCKED';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The function as 0016 made it, with its one ORDER BY changed (rather than a second copy of it here).
  const r = await sql<{ def: string }>`SELECT pg_get_functiondef(${LEASE}::regprocedure) AS def`.execute(db);
  const def = r.rows[0]!.def;
  if (!def.includes(FREE_ORDER)) throw new Error('0020: sim_lease_addresses is not the function 0016 made');
  await sql.raw(def.replace(FREE_ORDER, 'ORDER BY address + 0 LIMIT 1 FOR UPDATE SKIP LOCKED')).execute(db);
  for (const f of [LEASE, CREATE]) await sql`ALTER FUNCTION ${sql.raw(f)} SET enable_seqscan = off`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // 0016's definitions (CREATE OR REPLACE, which also drops the setting from sim_lease_addresses).
  await restoreLeaseFunctions(db);
  await sql`ALTER FUNCTION ${sql.raw(CREATE)} RESET enable_seqscan`.execute(db);
}
