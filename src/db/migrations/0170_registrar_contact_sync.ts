// The registrar's contact outbox: an account whose profile changed while it holds domains gets a
// row here, in the profile's own transaction, and the worker brings the registrant contacts at the
// registry up to date (EPP <contact:update>). One row per account: a newer change bumps `version`,
// so a sync that read the older profile does not remove the row the newer change needs. A registry
// that is down makes the row wait (due_at, doubling); one that refuses the data parks it (refused).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE registrar_contact_sync (
      account_id text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      version bigint NOT NULL DEFAULT 1,
      requested_at timestamptz NOT NULL DEFAULT now(),
      due_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      refused boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`CREATE INDEX registrar_contact_sync_due ON registrar_contact_sync (due_at) WHERE NOT refused`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE registrar_contact_sync`.execute(db);
}
