// Recurring billing: one row per (resource, period) charged or owed, and the notices a pass sends
// once per occasion. The unique keys are what make a pass safe to run twice or in two workers at
// once: a second attempt at the same period finds the row instead of charging again.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE billing_charges (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id      text NOT NULL REFERENCES accounts (id),
      resource_type   text NOT NULL CHECK (resource_type IN ('server', 'web_hosting', 'domain', 'vdc_pool')),
      resource_id     text NOT NULL,
      period_start    timestamptz NOT NULL,
      period_end      timestamptz NOT NULL CHECK (period_end > period_start),
      amount_cents    bigint NOT NULL CHECK (amount_cents >= 0),
      description     text NOT NULL,
      -- due: not paid yet (the balance did not cover it, or the registrar failed); paid; void: the
      -- service was cancelled or deleted before it was paid, so nothing is owed any more.
      status          text NOT NULL CHECK (status IN ('due', 'paid', 'void')),
      transaction_id  bigint REFERENCES transactions (id),
      -- The pass's clock (not now()): grace periods are measured against it.
      due_since       timestamptz NOT NULL,
      attempts        int NOT NULL DEFAULT 1,
      last_error      text,
      paid_at         timestamptz,
      created_at      timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT billing_charges_once_per_period UNIQUE (resource_type, resource_id, period_start),
      CHECK (status <> 'paid' OR paid_at IS NOT NULL)
    );
    CREATE INDEX billing_charges_due ON billing_charges (account_id, due_since, id) WHERE status = 'due';

    CREATE TABLE billing_notices (
      resource_type text NOT NULL,
      resource_id   text NOT NULL,
      kind          text NOT NULL,
      -- What the notice is about, e.g. the expiry it warns of: one notice per occasion.
      occasion      text NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (resource_type, resource_id, kind, occasion)
    );

    -- A VDC pool is billed from the first pass after the operator sets its price.
    ALTER TABLE vdc_pools ADD COLUMN billing_anchor_at timestamptz;
    ALTER TABLE vdc_pools ADD COLUMN next_billing_at timestamptz;

    CREATE INDEX servers_billing_due ON servers (next_billing_at) WHERE deleted_at IS NULL AND status IN ('active', 'suspended');
    CREATE INDEX web_hosting_billing_due ON web_hosting (next_billing_at) WHERE status IN ('active', 'suspended');
    CREATE INDEX domains_expiry ON domains (expires_at) WHERE status IN ('active', 'expired');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS domains_expiry;
    DROP INDEX IF EXISTS web_hosting_billing_due;
    DROP INDEX IF EXISTS servers_billing_due;
    ALTER TABLE vdc_pools DROP COLUMN IF EXISTS next_billing_at;
    ALTER TABLE vdc_pools DROP COLUMN IF EXISTS billing_anchor_at;
    DROP TABLE IF EXISTS billing_notices;
    DROP TABLE IF EXISTS billing_charges;
  `.execute(db);
}
