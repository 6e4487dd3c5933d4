// GET /v2/operations/{id}?wait=N answers as soon as the operation finishes. Every API process
// LISTENs on one channel (OPERATION_FINISHED_CHANNEL in db/names.ts); this trigger announces on it, by id, each
// operation that becomes completed or failed, whichever code path finished it (the worker's batched
// completions, a request finishing its own work, a failure with its compensation). NOTIFY is sent
// at commit and not at all on rollback, so a waiter that re-reads the row sees the finished state;
// the row-level WHEN keeps every other update of the table (progress, leases, claims) free of it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION hostcloud_operation_finished() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('hostcloud_operation_finished', NEW.id);
      RETURN NULL;
    END $$;

    CREATE TRIGGER operations_finished_notify
      AFTER UPDATE OF status ON operations
      FOR EACH ROW
      WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION hostcloud_operation_finished();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER operations_finished_notify ON operations;
    DROP FUNCTION hostcloud_operation_finished();
  `.execute(db);
}
