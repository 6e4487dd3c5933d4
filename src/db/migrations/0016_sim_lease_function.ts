// The simulated platform leases addresses in one statement. Before, a lease was five round trips
// from Node (lock the location's pools, reuse a released address, advance the pool's offset, insert
// the lease) inside a transaction that held the pools' row locks until its commit, so every create
// in a location queued behind ~10 round trips of the one before it: the worker's ceiling was that
// queue, not PostgreSQL. The same rules, run inside the database, hold the locks for the length of
// one statement and its commit.
//
// sim_provision_vm(...) makes a create request's machine in one statement: the machine row (or, for
// a token already seen, the existing one, untouched), its firewall, its addresses (IPv4 first,
// always: every allocation locks pools in the same order, so none deadlock; then IPv6) and its
// primaries. Its transaction does not wait for its WAL flush (see skipCommitFlush in
// db/queries/sim.ts): the worker's synchronous commit of the operation flushes it right after.
//
// sim_lease_addresses(location, version, vm, count) leases `count` addresses of one family to the
// machine: released ones first (lowest address), then the next never-used offset of the first pool
// (by id) that has one, skipping the pool's gateway. IPv4 keeps its network and broadcast addresses
// back, IPv6 its subnet-router anycast (offset 0). The location's pools of that family are locked
// (in id order) until the caller's transaction ends, so concurrent leases queue instead of racing
// for an offset. Not enough addresses: SQLSTATE HC001, and the caller's rollback returns every
// address already taken.
import { type Kysely, sql } from 'kysely';

// A machine's create request, and its end: the addresses leased, the primaries set, the row
// returned. 0018's sim_create_vm and 0031's hc_reserve_machine take the same request and end alike.
export const MACHINE_PARAMS = `p_id text, p_token text, p_location int, p_hostname text, p_cpu int, p_ram int, p_disk int, p_os text,
      p_ssh_keys text[], p_node text, p_firewall jsonb, p_v4 int, p_v6 int, p_primary_v6 boolean`;
export const MACHINE_DECLARE = `    DECLARE
      vm sim_vms;
      v4 text[];
      v6 text[];
    BEGIN
`;
export const LEASE_AND_RETURN = `        v4 := sim_lease_addresses(p_location, 4, vm.id, p_v4);
        v6 := sim_lease_addresses(p_location, 6, vm.id, p_v6);
        UPDATE sim_vms SET ipv4 = v4[1]::inet, ipv6 = CASE WHEN p_primary_v6 THEN v6[1]::inet END
        WHERE id = vm.id RETURNING * INTO vm;
      END IF;
      RETURN NEXT vm;
    END
    $$;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION sim_lease_addresses(p_location int, p_version int, p_vm text, p_count int)
    RETURNS text[] LANGUAGE plpgsql AS $$
    DECLARE
      pool_ids int[];
      leased text[] := '{}';
      taken text;
      pool record;
      last_offset numeric;
      off bigint;
      addr inet;
    BEGIN
      IF p_count <= 0 THEN RETURN leased; END IF;
      SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO pool_ids FROM (
        SELECT id FROM sim_ip_pools WHERE location_id = p_location AND version = p_version ORDER BY id FOR UPDATE
      ) locked;
      WHILE cardinality(leased) < p_count LOOP
        UPDATE sim_ip_leases SET vm_id = p_vm, leased_at = now()
        WHERE address = (
          SELECT address FROM sim_ip_leases WHERE pool_id = ANY (pool_ids) AND vm_id IS NULL
          ORDER BY address LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        RETURNING host(address) INTO taken;
        IF taken IS NULL THEN
          FOR pool IN SELECT * FROM sim_ip_pools WHERE id = ANY (pool_ids) ORDER BY id LOOP
            last_offset := 2::numeric ^ ((CASE WHEN p_version = 4 THEN 32 ELSE 128 END) - masklen(pool.cidr))
              - (CASE WHEN p_version = 4 THEN 2 ELSE 1 END);
            off := greatest(pool.next_offset, 1);
            -- Past the pool's end is checked before any arithmetic: the top block of the space would overflow.
            CONTINUE WHEN off > last_offset;
            IF host(network(pool.cidr)::inet + off) = host(pool.gateway) THEN off := off + 1; END IF;
            CONTINUE WHEN off > last_offset;
            addr := network(pool.cidr)::inet + off;
            UPDATE sim_ip_pools SET next_offset = off + 1 WHERE id = pool.id;
            taken := host(addr);
            INSERT INTO sim_ip_leases (address, pool_id, vm_id, leased_at) VALUES (taken::inet, pool.id, p_vm, now());
            EXIT;
          END LOOP;
        END IF;
        IF taken IS NULL THEN
          RAISE EXCEPTION 'No free IPv% address in location %', p_version, p_location USING ERRCODE = 'HC001';
        END IF;
        leased := leased || taken;
        taken := NULL;
      END LOOP;
      RETURN leased;
    END
    $$;

    CREATE OR REPLACE FUNCTION sim_provision_vm(
      ${sql.raw(MACHINE_PARAMS)}
    ) RETURNS SETOF sim_vms LANGUAGE plpgsql AS $$
${sql.raw(MACHINE_DECLARE)}      PERFORM set_config('synchronous_commit', 'off', true);
      INSERT INTO sim_vms (id, request_token, location_id, hostname, power, cpu_cores, ram_mb, storage_gb, os_slug, ssh_keys, node)
      VALUES (p_id, p_token, p_location, p_hostname, 'provisioning', p_cpu, p_ram, p_disk, p_os, p_ssh_keys, p_node)
      ON CONFLICT (request_token) DO NOTHING
      RETURNING * INTO vm;
      IF vm.id IS NULL THEN
        SELECT * INTO vm FROM sim_vms WHERE request_token = p_token;
      ELSE
        INSERT INTO sim_firewall_rules (vm_id, position, direction, protocol, port, source, action)
        SELECT vm.id, r.position, r.direction, r.protocol, r.port, r.source, r.action
        FROM jsonb_to_recordset(p_firewall) AS r(position int, direction text, protocol text, port text, source text, action text);
${sql.raw(LEASE_AND_RETURN)}  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION IF EXISTS sim_provision_vm(text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean);
    DROP FUNCTION IF EXISTS sim_lease_addresses(int, int, text, int);
  `.execute(db);
}
