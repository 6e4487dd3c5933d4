// The registry's message queue as the worker read it (EPP <poll>): transfers' outcomes and the
// registry's notices, kept for the operator. msg_id is the registry's: a message read twice (its
// acknowledgement lost) is one row.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE registrar_messages (
      id bigserial PRIMARY KEY,
      registrar text NOT NULL,
      msg_id text NOT NULL,
      queued_at timestamptz,
      received_at timestamptz NOT NULL DEFAULT now(),
      domain text,
      kind text NOT NULL CHECK (kind IN ('transfer', 'notice')),
      text text NOT NULL,
      detail jsonb NOT NULL DEFAULT '{}'::jsonb,
      UNIQUE (registrar, msg_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE registrar_messages`.execute(db);
}
