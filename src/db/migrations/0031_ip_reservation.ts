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
      p_id text, p_token text, p_location int, p_hostname text, p_cpu int, p_ram int, p_disk int, p_os text,
      p_ssh_keys text[], p_node text, p_firewall jsonb, p_v4 int, p_v6 int, p_primary_v6 boolean
    ) RETURNS SETOF sim_vms LANGUAGE plpgsql SET enable_seqscan = off AS $$
    DECLARE
      vm sim_vms;
      v4 text[];
      v6 text[];
    BEGIN
      INSERT INTO sim_vms (id, request_token, location_id, hostname, power, cpu_cores, ram_mb, storage_gb, os_slug, ssh_keys, node, firewall)
      VALUES (p_id, p_token, p_location, p_hostname, 'provisioning', p_cpu, p_ram, p_disk, p_os, p_ssh_keys, p_node, p_firewall)
      ON CONFLICT (request_token) DO NOTHING
      RETURNING * INTO vm;
      IF vm.id IS NULL THEN
        SELECT * INTO vm FROM sim_vms WHERE request_token = p_token;
      ELSE
        v4 := sim_lease_addresses(p_location, 4, vm.id, p_v4);
        v6 := sim_lease_addresses(p_location, 6, vm.id, p_v6);
        UPDATE sim_vms SET ipv4 = v4[1]::inet, ipv6 = CASE WHEN p_primary_v6 THEN v6[1]::inet END
        WHERE id = vm.id RETURNING * INTO vm;
      END IF;
      RETURN NEXT vm;
    END
    $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION hc_reserve_machine(text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)`.execute(db);
  const r = await sql<{ def: string }>`SELECT pg_get_functiondef(${LEASE}::regprocedure) AS def`.execute(db);
  await sql.raw(r.rows[0]!.def.replace(COOLED, FREE)).execute(db);
  await sql`ALTER TABLE sim_ip_leases DROP COLUMN released_at`.execute(db);
}
