// The worker's hot path: its job fetch walks an index instead of sorting the backlog,
// and the simulated platform's create consults its fault switch in the statement that makes the
// machine.
//
// job_fetch_order: pg-boss 10 fetches the next jobs of a queue in (priority DESC, created_on, id)
// order, but its index for that (job_i5) is on (name, start_after): every fetch read and sorted
// every queued job of the queue — ~1 ms of the database's CPU per fetch with 3,000 queued, more
// as the backlog grows. With this index a fetch reads the rows it takes. Built on the partitioned
// parent, so every queue's partition (later ones too) gets it.
//
// The simulated platform's create in one statement with its fault switch, and a machine's firewall
// in its own row. A create was three statements (the fault switch and an earlier machine of the
// token; the machine; its boot; now two), and the machine's default firewall went in as ~10 rows of
// sim_firewall_rules, each with its index entries and foreign-key check: about two thirds of the
// WAL a create wrote, for rules nothing ever changes. Now:
//
// sim_vms.firewall holds the machine's rules (a JSON array ordered by position) from its creation.
// Machines made before, or by a process of an older version during a rolling upgrade, keep theirs in
// sim_firewall_rules (firewall NULL); reads take the column, else the table.
//
// sim_create_vm(p_refused, …) is sim_provision_vm (0016) that makes nothing when `p_refused` is
// not NULL (the mode the fault switch answered, consumed by the same statement before the call)
// and writes the firewall column instead of rows. sim_provision_vm stays for older processes.
import { type Kysely, sql } from 'kysely';
import { JOB_SCHEMA } from '../names.ts';
import { LEASE_AND_RETURN, MACHINE_DECLARE, MACHINE_PARAMS } from './0016_sim_lease_function.ts';

// The machine row with its firewall (or the one made earlier under the token); 0031's
// hc_reserve_machine makes it alike.
export const MAKE_MACHINE = `      INSERT INTO sim_vms (id, request_token, location_id, hostname, power, cpu_cores, ram_mb, storage_gb, os_slug, ssh_keys, node, firewall)
      VALUES (p_id, p_token, p_location, p_hostname, 'provisioning', p_cpu, p_ram, p_disk, p_os, p_ssh_keys, p_node, p_firewall)
      ON CONFLICT (request_token) DO NOTHING
      RETURNING * INTO vm;
      IF vm.id IS NULL THEN
        SELECT * INTO vm FROM sim_vms WHERE request_token = p_token;
      ELSE
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX job_fetch_order ON ${sql.table(`${JOB_SCHEMA}.job`)} (name, priority DESC, created_on, id) WHERE state < 'active'`.execute(db);
  await sql`
    ALTER TABLE sim_vms ADD COLUMN firewall jsonb;

    CREATE FUNCTION sim_create_vm(
      p_refused text, ${sql.raw(MACHINE_PARAMS)}
    ) RETURNS SETOF sim_vms LANGUAGE plpgsql AS $$
${sql.raw(MACHINE_DECLARE)}      IF p_refused IS NOT NULL THEN RETURN; END IF;
      PERFORM set_config('synchronous_commit', 'off', true);
${sql.raw(MAKE_MACHINE)}${sql.raw(LEASE_AND_RETURN)}  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION sim_create_vm(text, text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean);
    INSERT INTO sim_firewall_rules (vm_id, position, direction, protocol, port, source, action)
    SELECT v.id, r.position, r.direction, r.protocol, r.port, r.source, r.action
    FROM sim_vms v, jsonb_to_recordset(v.firewall) AS r(position int, direction text, protocol text, port text, source text, action text)
    WHERE v.firewall IS NOT NULL;
    ALTER TABLE sim_vms DROP COLUMN firewall;
  `.execute(db);
  await sql`DROP INDEX ${sql.table(`${JOB_SCHEMA}.job_fetch_order`)}`.execute(db);
}
