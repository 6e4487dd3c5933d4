// A server's update moves its node's counters only when what it holds there changes. Before, every
// update of `status` ran the holds trigger, which took the server's hold off its node and put it
// back (two updates of the node row, net zero): a create's completion (pending → active) thus
// locked its node's row until its commit, and every completion on that node queued behind the one
// before it. The update trigger now fires only when the server starts or stops holding (deleted,
// cancelled), or its node, migration target, size or resize hold changes — exactly the updates
// for which servers_node_holds() moves anything. Inserts and deletes are unchanged.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER servers_node_holds ON servers;
    CREATE TRIGGER servers_node_holds AFTER INSERT OR DELETE ON servers FOR EACH ROW EXECUTE FUNCTION servers_node_holds();
    CREATE TRIGGER servers_node_holds_update
      AFTER UPDATE OF node_id, migration_node_id, cpu_cores, ram_mb, storage_gb, resize_hold_cpu, resize_hold_ram_mb, resize_hold_storage_gb, status, deleted_at
      ON servers FOR EACH ROW
      WHEN ((OLD.deleted_at IS NULL AND OLD.status <> 'cancelled') IS DISTINCT FROM (NEW.deleted_at IS NULL AND NEW.status <> 'cancelled')
        OR ROW(OLD.node_id, OLD.migration_node_id, OLD.cpu_cores, OLD.ram_mb, OLD.storage_gb, OLD.resize_hold_cpu, OLD.resize_hold_ram_mb, OLD.resize_hold_storage_gb)
           IS DISTINCT FROM ROW(NEW.node_id, NEW.migration_node_id, NEW.cpu_cores, NEW.ram_mb, NEW.storage_gb, NEW.resize_hold_cpu, NEW.resize_hold_ram_mb, NEW.resize_hold_storage_gb))
      EXECUTE FUNCTION servers_node_holds();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER servers_node_holds_update ON servers;
    DROP TRIGGER servers_node_holds ON servers;
    CREATE TRIGGER servers_node_holds
      AFTER INSERT OR DELETE OR UPDATE OF node_id, migration_node_id, cpu_cores, ram_mb, storage_gb, resize_hold_cpu, resize_hold_ram_mb, resize_hold_storage_gb, status, deleted_at ON servers
      FOR EACH ROW EXECUTE FUNCTION servers_node_holds();
  `.execute(db);
}
