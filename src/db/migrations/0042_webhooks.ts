// Webhooks: the endpoints a customer registers and the outbox of deliveries the worker sends
// (core/webhooks/, jobs/webhook-sender.ts). A delivery row is written by hc_emit_event in the very
// statement that writes its event - one per enabled endpoint of the account subscribed to the type
// - so a delivery exists exactly when its event committed, and a NOTIFY at that commit wakes the
// senders (the payload is empty: PostgreSQL sends identical ones once per transaction).
import { type Kysely, sql } from 'kysely';
import { EMIT_EVENT, WRITE_EVENT, eventSnapshotCase } from './0041_events.ts';

// The endpoint's facts for webhook.ping's data (secrets left out): 0041's snapshot gains this arm.
export const WEBHOOK_ARM = `        WHEN 'webhook' THEN
          SELECT to_jsonb(w) - 'secret' - 'previous_secret' INTO snap FROM webhook_endpoints w WHERE w.id = p_id;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_endpoints (
      id                         text PRIMARY KEY,
      account_id                 text NOT NULL REFERENCES accounts (id),
      url                        text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
      -- '*', '<family>.*' or event types (core/events/catalogue.ts isEventPattern).
      events                     text[] NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 100),
      description                text CHECK (length(description) <= 500),
      enabled                    boolean NOT NULL DEFAULT true,
      -- whsec_<base64>: the signing key, kept to sign with (the customer verifies with it).
      secret                     text NOT NULL,
      -- After a rotation the old secret signs too, until previous_secret_expires_at.
      previous_secret            text,
      previous_secret_expires_at timestamptz,
      -- Why the service disabled it (a 410, every attempt failing for WEBHOOK_DISABLE_AFTER_DAYS); null otherwise.
      disabled_reason            text,
      -- The first failed attempt since the last success: the endpoint has been failing since then.
      failing_since              timestamptz,
      created_at                 timestamptz NOT NULL DEFAULT now(),
      updated_at                 timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at, id);

    CREATE TABLE webhook_deliveries (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      webhook_id      text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_id        text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
      event_type      text NOT NULL,
      status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      -- Attempts started: counted when a sender claims the delivery, so one that keeps killing its
      -- sender still runs out of attempts.
      attempt         int NOT NULL DEFAULT 0 CHECK (attempt >= 0),
      -- When a pending delivery may next be claimed: now for a new one, the schedule's wait after a
      -- failure, the claim's lease while a sender has it (a sender that dies gives it back when it lapses).
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      response_status int,
      error           text CHECK (length(error) <= 1000),
      created_at      timestamptz NOT NULL DEFAULT now(),
      last_attempt_at timestamptz,
      -- When it succeeded, or failed for good.
      finished_at     timestamptz
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_endpoint_newest ON webhook_deliveries (webhook_id, id DESC);
    CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

${sql.raw(eventSnapshotCase(true, WEBHOOK_ARM))}
    -- 0041's, and now the fan-out: one delivery per enabled endpoint of the account subscribed to
    -- the type ('*', the type's family '<family>.*', or the type), or to the one endpoint p_only
    -- names whatever its subscription (a ping).
    DROP FUNCTION hc_emit_event(text, text, text, text, jsonb);
    CREATE FUNCTION hc_emit_event(p_account text, p_type text, p_resource_type text, p_resource_id text, p_data jsonb DEFAULT NULL, p_only text DEFAULT NULL)
    RETURNS text LANGUAGE plpgsql AS $$
${sql.raw(WRITE_EVENT)}      INSERT INTO webhook_deliveries (webhook_id, event_id, event_type)
      SELECT w.id, v_id, p_type FROM webhook_endpoints w
       WHERE w.account_id = p_account AND w.enabled
         AND CASE WHEN p_only IS NULL
                  THEN '*' = ANY (w.events) OR p_type = ANY (w.events) OR split_part(p_type, '.', 1) || '.*' = ANY (w.events)
                  ELSE w.id = p_only END;
      IF FOUND THEN PERFORM pg_notify('hostcloud_webhook_due', ''); END IF;
      RETURN v_id;
    END $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION hc_emit_event(text, text, text, text, jsonb, text);
${sql.raw(EMIT_EVENT)}
    DROP TABLE webhook_deliveries;
    DROP TABLE webhook_endpoints;
  `.execute(db);
}
