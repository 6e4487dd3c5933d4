// A server's resize holds its growth on its node from the moment it is accepted, as a VDC VM's
// does (0010): before this, the growth was only counted when the platform had finished, so a
// create accepted meanwhile could take the room and leave the node over its total once the
// resize completed. `resize_hold_*` is what a running resize holds beyond the server's recorded
// size (the growth, never negative; 0 otherwise): the acceptance sets it, in the transaction that
// checks the room, and the trigger refuses it unless it fits; the completion records the new size
// and clears it in one statement (the node's usage does not move for a growth, falls for a
// shrink); a failure clears it (the growth given back).
// Existing rows start at 0, so every node's usage stays what it is. A resize already running when
// this is applied holds nothing extra and is counted at completion, as before.
import { type Kysely, sql } from 'kysely';
import { SERVERS_NODE_HOLDS } from './0010_nodes.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE servers
      ADD COLUMN resize_hold_cpu int NOT NULL DEFAULT 0 CHECK (resize_hold_cpu >= 0),
      ADD COLUMN resize_hold_ram_mb int NOT NULL DEFAULT 0 CHECK (resize_hold_ram_mb >= 0),
      ADD COLUMN resize_hold_storage_gb int NOT NULL DEFAULT 0 CHECK (resize_hold_storage_gb >= 0);

    -- A server holds its size plus its resize hold on node_id, and on migration_node_id too while it
    -- moves, unless it is deleted or cancelled. A node newly held, or a resize hold that grows, must
    -- fit; a change of the recorded size alone (the platform has done it) is taken as it is.
    CREATE OR REPLACE FUNCTION servers_node_holds() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_holds boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL AND OLD.status <> 'cancelled';
      new_holds boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL AND NEW.status <> 'cancelled';
      had int[] := '{}';
      grown boolean := false;
    BEGIN
      IF old_holds THEN
        had := array_remove(ARRAY[OLD.node_id, OLD.migration_node_id], NULL);
        PERFORM nodes_hold(OLD.node_id, -(OLD.cpu_cores + OLD.resize_hold_cpu), -(OLD.ram_mb + OLD.resize_hold_ram_mb), -(OLD.storage_gb + OLD.resize_hold_storage_gb), false);
        IF OLD.migration_node_id IS DISTINCT FROM OLD.node_id THEN
          PERFORM nodes_hold(OLD.migration_node_id, -(OLD.cpu_cores + OLD.resize_hold_cpu), -(OLD.ram_mb + OLD.resize_hold_ram_mb), -(OLD.storage_gb + OLD.resize_hold_storage_gb), false);
        END IF;
        grown := TG_OP = 'UPDATE' AND (NEW.resize_hold_cpu > OLD.resize_hold_cpu OR NEW.resize_hold_ram_mb > OLD.resize_hold_ram_mb OR NEW.resize_hold_storage_gb > OLD.resize_hold_storage_gb);
      END IF;
      IF new_holds THEN
        PERFORM nodes_hold(NEW.node_id, NEW.cpu_cores + NEW.resize_hold_cpu, NEW.ram_mb + NEW.resize_hold_ram_mb, NEW.storage_gb + NEW.resize_hold_storage_gb, grown OR NOT (NEW.node_id = ANY (had)));
        IF NEW.migration_node_id IS DISTINCT FROM NEW.node_id THEN
          PERFORM nodes_hold(NEW.migration_node_id, NEW.cpu_cores + NEW.resize_hold_cpu, NEW.ram_mb + NEW.resize_hold_ram_mb, NEW.storage_gb + NEW.resize_hold_storage_gb,
            grown OR NOT (NEW.migration_node_id = ANY (had)));
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    -- The trigger's column list gains the hold columns.
    DROP TRIGGER servers_node_holds ON servers;
    CREATE TRIGGER servers_node_holds
      AFTER INSERT OR DELETE OR UPDATE OF node_id, migration_node_id, cpu_cores, ram_mb, storage_gb, resize_hold_cpu, resize_hold_ram_mb, resize_hold_storage_gb, status, deleted_at ON servers
      FOR EACH ROW EXECUTE FUNCTION servers_node_holds();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Releases any hold first (through the new function), then restores 0010's function and trigger.
  await sql`
    UPDATE servers SET resize_hold_cpu = 0, resize_hold_ram_mb = 0, resize_hold_storage_gb = 0
     WHERE resize_hold_cpu <> 0 OR resize_hold_ram_mb <> 0 OR resize_hold_storage_gb <> 0;
    DROP TRIGGER servers_node_holds ON servers;
    CREATE OR REPLACE ${sql.raw(SERVERS_NODE_HOLDS)}    ALTER TABLE servers DROP COLUMN resize_hold_cpu, DROP COLUMN resize_hold_ram_mb, DROP COLUMN resize_hold_storage_gb;
    CREATE TRIGGER servers_node_holds
      AFTER INSERT OR DELETE OR UPDATE OF node_id, migration_node_id, cpu_cores, ram_mb, storage_gb, status, deleted_at ON servers
      FOR EACH ROW EXECUTE FUNCTION servers_node_holds();
  `.execute(db);
}
