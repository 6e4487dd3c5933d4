// Staff signing in as a customer (core/staff/impersonation.ts):
// - panel_sessions gains who opened it on the customer's behalf (impersonator_staff_id), why
//   (reason), whether it may write (read_only), and when its end was written to the audit log
//   (end_audited_at: the end of a session that lapsed is audited by the worker's sweep, once);
// - impersonation_links: the single-use link a start hands the staff member, by the SHA-256 of its
//   ticket; opening it spends the row and starts the session.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE panel_sessions
      ADD COLUMN impersonator_staff_id text REFERENCES staff_members (id),
      ADD COLUMN reason text CHECK (length(reason) BETWEEN 3 AND 500),
      ADD COLUMN read_only boolean NOT NULL DEFAULT false,
      ADD COLUMN end_audited_at timestamptz,
      ADD CONSTRAINT panel_sessions_impersonation CHECK (
        (impersonator_staff_id IS NULL) = (reason IS NULL)
        AND (impersonator_staff_id IS NOT NULL OR (NOT read_only AND end_audited_at IS NULL))
      );
    -- The sweep's look for impersonations that ended unaudited.
    CREATE INDEX panel_sessions_impersonation_open ON panel_sessions (expires_at)
      WHERE impersonator_staff_id IS NOT NULL AND end_audited_at IS NULL;

    CREATE TABLE impersonation_links (
      ticket_hash text PRIMARY KEY,
      account_id  text NOT NULL REFERENCES accounts (id),
      user_id     bigint NOT NULL REFERENCES panel_users (id) ON DELETE CASCADE,
      staff_id    text NOT NULL REFERENCES staff_members (id),
      reason      text NOT NULL CHECK (length(reason) BETWEEN 3 AND 500),
      read_only   boolean NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz
    );
    CREATE INDEX impersonation_links_expires ON impersonation_links (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE impersonation_links;
    ALTER TABLE panel_sessions DROP CONSTRAINT panel_sessions_impersonation,
      DROP COLUMN end_audited_at, DROP COLUMN read_only, DROP COLUMN reason, DROP COLUMN impersonator_staff_id;
  `.execute(db);
}
