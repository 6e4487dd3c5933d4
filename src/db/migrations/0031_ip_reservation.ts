// Addresses belong to the core: a server create takes its machine's addresses in its own
// transaction (or its one statement), so a location whose pool is empty answers 422
// CAPACITY_UNAVAILABLE before anything is charged, instead of charging, failing in the worker and
// refunding. hc_reserve_machine(...) is sim_create_vm (0018) without the fault switch and without
// turning off synchronous_commit (it runs in the money write, whose commit must be durable): the
// machine record with its addresses, made under the request token the worker's create then finds.
//
// Cool-down: a released address rests before it is leased again (`released_at`; the rest is the
// `ip_cooldown_s` setting, written from IP_COOLDOWN_S by each process at start, default 3600 s).
// Fresh addresses are taken first while resting ones cool down.
import { type Kysely, sql } from 'kysely';
import { LEASE_AND_RETURN, MACHINE_DECLARE, MACHINE_PARAMS } from './0016_sim_lease_function.ts';
import { MAKE_MACHINE } from './0018_worker_hot_path.ts';

const LEASE = 'sim_lease_addresses(int, int, text, int)';
const FREE = 'WHERE pool_id = ANY (pool_ids) AND vm_id IS NULL';
const COOLED = `${FREE} AND (released_at IS NULL OR released_at <= now() - make_interval(secs => (
            SELECT coalesce(max((value #>> '{}')::int), 3600) FROM sim_settings WHERE name = 'ip_cooldown_s')))`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sim_ip_leases ADD COLUMN released_at timestamptz`.execute(db);
  const r = await sql<{ def: string }>`SELECT pg_get_functiondef(${LEASE}::regprocedure) AS def`.execute(db);
  const def = r.rows[0]!.def;
  if (!def.includes(FREE)) throw new Error('0031: sim_lease_addresses is not the function 0016/0020 made');
  await sql.raw(def.replace(FREE, COOLED)).execute(db);
  await sql`
    CREATE FUNCTION hc_reserve_machine(
      ${sql.raw(MACHINE_PARAMS)}
    ) RETURNS SETOF sim_vms LANGUAGE plpgsql SET enable_seqscan = off AS $$
${sql.raw(MACHINE_DECLARE)}${sql.raw(MAKE_MACHINE)}${sql.raw(LEASE_AND_RETURN)}  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION hc_reserve_machine(text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)`.execute(db);
  const r = await sql<{ def: string }>`SELECT pg_get_functiondef(${LEASE}::regprocedure) AS def`.execute(db);
  await sql.raw(r.rows[0]!.def.replace(COOLED, FREE)).execute(db);
  await sql`ALTER TABLE sim_ip_leases DROP COLUMN released_at`.execute(db);
}
