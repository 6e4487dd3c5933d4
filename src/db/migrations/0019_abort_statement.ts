// hc_abort(reason): raises SQLSTATE HC002 with `reason` as its message when reason is not null,
// else returns true. A write made of one statement (a server create's rows in one CTE, run
// outside any transaction) calls it once its parts have run, naming the first condition that
// failed (the idempotency key already taken, the node no longer active, the balance short): the
// exception undoes every row the statement wrote, so "all or nothing" holds without a BEGIN and
// a COMMIT round trip. The caller then takes its transaction path, which reports the exact error.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION hc_abort(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF reason IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'HC002', MESSAGE = reason;
      END IF;
      RETURN true;
    END $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION hc_abort(text)`.execute(db);
}
