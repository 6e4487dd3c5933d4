// Hypervisor nodes: the machines of the compute platform our servers and VDC VMs run on. What a
// node has handed out (`*_used`) is kept in its row by triggers on the server and VM rows, in the
// statement that places, resizes, moves or removes them, so usage is always the sum over what is
// placed there. Placing on a node (an insert, or a move to another node) is refused by the
// trigger when it does not fit, whatever the concurrency: the node row's UPDATE re-checks under
// its row lock. A VM's resize is held on its node when accepted (as in its pool), so it is refused
// here too. A server's resize or upgrade is checked when accepted (core/nodes/placement.ts,
// requireNodeRoom) and never refused here: a server's size changes when the platform has done it.
import { type Kysely, sql } from 'kysely';

// 0015's down makes it again (CREATE OR REPLACE).
export const SERVERS_NODE_HOLDS = `FUNCTION servers_node_holds() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_holds boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL AND OLD.status <> 'cancelled';
      new_holds boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL AND NEW.status <> 'cancelled';
      had int[] := '{}';
    BEGIN
      IF old_holds THEN
        had := array_remove(ARRAY[OLD.node_id, OLD.migration_node_id], NULL);
        PERFORM nodes_hold(OLD.node_id, -OLD.cpu_cores, -OLD.ram_mb, -OLD.storage_gb, false);
        IF OLD.migration_node_id IS DISTINCT FROM OLD.node_id THEN
          PERFORM nodes_hold(OLD.migration_node_id, -OLD.cpu_cores, -OLD.ram_mb, -OLD.storage_gb, false);
        END IF;
      END IF;
      IF new_holds THEN
        PERFORM nodes_hold(NEW.node_id, NEW.cpu_cores, NEW.ram_mb, NEW.storage_gb, NOT (NEW.node_id = ANY (had)));
        IF NEW.migration_node_id IS DISTINCT FROM NEW.node_id THEN
          PERFORM nodes_hold(NEW.migration_node_id, NEW.cpu_cores, NEW.ram_mb, NEW.storage_gb, NOT (NEW.migration_node_id = ANY (had)));
        END IF;
      END IF;
      RETURN NULL;
    END $$;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE nodes (
      id              serial PRIMARY KEY,
      location_id     int NOT NULL REFERENCES locations (id),
      -- The platform's name of the host (libvirt URI host, Proxmox node name).
      name            text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9.-]{0,62}$'),
      cpu_vendor      text NOT NULL CHECK (cpu_vendor IN ('intel', 'amd')),
      cpu_cores       int NOT NULL CHECK (cpu_cores > 0),
      ram_mb          int NOT NULL CHECK (ram_mb > 0),
      storage_gb      int NOT NULL CHECK (storage_gb > 0),
      status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'draining', 'disabled')),
      -- Sum over the servers and VMs placed here; written only by nodes_hold().
      used_cpu        int NOT NULL DEFAULT 0 CHECK (used_cpu >= 0),
      used_ram_mb     int NOT NULL DEFAULT 0 CHECK (used_ram_mb >= 0),
      used_storage_gb int NOT NULL DEFAULT 0 CHECK (used_storage_gb >= 0),
      created_at      timestamptz NOT NULL DEFAULT now(),
      updated_at      timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX nodes_location ON nodes (location_id, id);

    -- Where a server runs, and while a migration runs the node it goes to (held on both meanwhile).
    ALTER TABLE servers ADD COLUMN node_id int REFERENCES nodes (id), ADD COLUMN migration_node_id int REFERENCES nodes (id);
    CREATE INDEX servers_node ON servers (node_id) WHERE deleted_at IS NULL;
    ALTER TABLE vdc_vms ADD COLUMN node_id int REFERENCES nodes (id), ADD COLUMN migration_node_id int REFERENCES nodes (id);
    CREATE INDEX vdc_vms_node ON vdc_vms (node_id) WHERE deleted_at IS NULL;
    -- The simulated platform's own record of the host each machine runs on.
    ALTER TABLE sim_vms ADD COLUMN node text;

    -- Moves a node's counters by a delta; with must_fit, refuses (check_violation nodes_capacity)
    -- unless the result stays within the node's totals. The UPDATE's WHERE is re-read under the
    -- row lock, so two placements racing for the last room cannot both pass.
    CREATE FUNCTION nodes_hold(node int, d_cpu int, d_ram int, d_disk int, must_fit boolean) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF node IS NULL OR (d_cpu = 0 AND d_ram = 0 AND d_disk = 0) THEN RETURN; END IF;
      UPDATE nodes SET used_cpu = used_cpu + d_cpu, used_ram_mb = used_ram_mb + d_ram, used_storage_gb = used_storage_gb + d_disk, updated_at = now()
       WHERE id = node
         AND (NOT must_fit OR (used_cpu + d_cpu <= cpu_cores AND used_ram_mb + d_ram <= ram_mb AND used_storage_gb + d_disk <= storage_gb));
      IF NOT FOUND THEN
        RAISE EXCEPTION 'node % has no room for % vCPU, % MB RAM, % GB disk', node, d_cpu, d_ram, d_disk
          USING ERRCODE = 'check_violation', CONSTRAINT = 'nodes_capacity';
      END IF;
    END $$;

    -- A server holds its size on node_id, and on migration_node_id too while it moves, unless it is
    -- deleted or cancelled. A node newly held must fit; one it already held takes the change.
    CREATE ${sql.raw(SERVERS_NODE_HOLDS)}    CREATE TRIGGER servers_node_holds
      AFTER INSERT OR DELETE OR UPDATE OF node_id, migration_node_id, cpu_cores, ram_mb, storage_gb, status, deleted_at ON servers
      FOR EACH ROW EXECUTE FUNCTION servers_node_holds();

    -- A VM holds on its node what it holds from its pool (held_*: its size; the larger of the old
    -- and new size while a resize runs; nothing once failed), and on migration_node_id too while it
    -- moves, unless deleted. A node newly held, or a hold that grows (a resize accepted), must fit.
    CREATE FUNCTION vdc_vms_node_holds() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_holds boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
      new_holds boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
      had int[] := '{}';
      grown boolean := false;
    BEGIN
      IF old_holds THEN
        had := array_remove(ARRAY[OLD.node_id, OLD.migration_node_id], NULL);
        PERFORM nodes_hold(OLD.node_id, -OLD.held_cpu, -OLD.held_ram_mb, -OLD.held_storage_gb, false);
        IF OLD.migration_node_id IS DISTINCT FROM OLD.node_id THEN
          PERFORM nodes_hold(OLD.migration_node_id, -OLD.held_cpu, -OLD.held_ram_mb, -OLD.held_storage_gb, false);
        END IF;
        grown := TG_OP = 'UPDATE' AND (NEW.held_cpu > OLD.held_cpu OR NEW.held_ram_mb > OLD.held_ram_mb OR NEW.held_storage_gb > OLD.held_storage_gb);
      END IF;
      IF new_holds THEN
        PERFORM nodes_hold(NEW.node_id, NEW.held_cpu, NEW.held_ram_mb, NEW.held_storage_gb, grown OR NOT (NEW.node_id = ANY (had)));
        IF NEW.migration_node_id IS DISTINCT FROM NEW.node_id THEN
          PERFORM nodes_hold(NEW.migration_node_id, NEW.held_cpu, NEW.held_ram_mb, NEW.held_storage_gb, grown OR NOT (NEW.migration_node_id = ANY (had)));
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER vdc_vms_node_holds
      AFTER INSERT OR DELETE OR UPDATE OF node_id, migration_node_id, held_cpu, held_ram_mb, held_storage_gb, deleted_at ON vdc_vms
      FOR EACH ROW EXECUTE FUNCTION vdc_vms_node_holds();

    -- The used counters are the sum of what is placed: only the triggers above may move them.
    CREATE FUNCTION nodes_used_via_holds() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_trigger_depth() < 2 AND (TG_OP = 'INSERT' AND (NEW.used_cpu, NEW.used_ram_mb, NEW.used_storage_gb) IS DISTINCT FROM (0, 0, 0)
          OR TG_OP = 'UPDATE' AND (NEW.used_cpu, NEW.used_ram_mb, NEW.used_storage_gb) IS DISTINCT FROM (OLD.used_cpu, OLD.used_ram_mb, OLD.used_storage_gb)) THEN
        RAISE EXCEPTION 'a node''s used counters change only through the servers and VMs placed on it' USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER nodes_used_via_holds BEFORE INSERT OR UPDATE ON nodes FOR EACH ROW EXECUTE FUNCTION nodes_used_via_holds();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER servers_node_holds ON servers;
    DROP TRIGGER vdc_vms_node_holds ON vdc_vms;
    ALTER TABLE servers DROP COLUMN node_id, DROP COLUMN migration_node_id;
    ALTER TABLE vdc_vms DROP COLUMN node_id, DROP COLUMN migration_node_id;
    ALTER TABLE sim_vms DROP COLUMN node;
    DROP TABLE nodes;
    DROP FUNCTION servers_node_holds(), vdc_vms_node_holds(), nodes_hold(int, int, int, int, boolean), nodes_used_via_holds();
  `.execute(db);
}
