// The notifications outbox, and one fault switch per simulated provider.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The compute switch was the only one ('fault'); each provider now has its own row.
    UPDATE sim_settings SET name = 'fault:compute' WHERE name = 'fault';

    -- Every notice to a customer (hosting cancelled, ticket answered, service suspended, domain
    -- expiring...), written in the transaction of the change that caused it. The worker sends
    -- queued ones when SMTP_URL is set; otherwise they stay queued and visible to the operator.
    CREATE TABLE notifications (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id      text NOT NULL REFERENCES accounts (id),
      kind            text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]*([.][a-z][a-z0-9_]*)+$' AND length(kind) <= 64),
      to_email        text NOT NULL CHECK (length(to_email) BETWEEN 3 AND 254),
      subject         text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
      body            text NOT NULL CHECK (length(body) <= 100000),
      status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
      -- Sending attempts started; counted when a sender claims the notice, so one that keeps
      -- killing its sender still runs out of attempts.
      attempts        int NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      last_error      text,
      -- When a queued notice may next be claimed: now for a new one, the backoff after a failure,
      -- the claim's lease while a sender has it (a sender that dies gives it back when it lapses).
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      created_at      timestamptz NOT NULL DEFAULT now(),
      sent_at         timestamptz,
      CHECK ((status = 'sent') = (sent_at IS NOT NULL))
    );
    CREATE INDEX notifications_due ON notifications (next_attempt_at, id) WHERE status = 'queued';
    CREATE INDEX notifications_newest ON notifications (created_at DESC, id DESC);
    CREATE INDEX notifications_account_newest ON notifications (account_id, created_at DESC, id DESC);
    CREATE INDEX notifications_status_newest ON notifications (status, created_at DESC, id DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE notifications;
    UPDATE sim_settings SET name = 'fault' WHERE name = 'fault:compute';
    DELETE FROM sim_settings WHERE name LIKE 'fault:%';
  `.execute(db);
}
