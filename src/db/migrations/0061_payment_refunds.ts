// Refunds of paid top-ups as records of their own, so a refund is never lost between the provider
// and our database. A refund is written (pending) and the amount taken off the balance in one
// transaction, before the provider is asked; the provider's idempotency key is derived from the
// row's id, so asking again - after a failed commit, a crash, a timeout - never pays twice; the
// credit note is issued, and the row completed, in the transaction after. A refund the provider
// refuses is `failed`, and the amount goes back to the balance (`reversal_id`).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payment_refunds (
      id                  text PRIMARY KEY,
      payment_id          text NOT NULL REFERENCES payments (id),
      account_id          text NOT NULL REFERENCES accounts (id),
      -- The deposit refunded and the invoice the credit note will correct.
      deposit_id          bigint NOT NULL REFERENCES transactions (id),
      invoice_id          text NOT NULL REFERENCES invoices (id),
      status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
      net_cents           bigint NOT NULL CHECK (net_cents > 0),
      tax_cents           bigint NOT NULL CHECK (tax_cents >= 0),
      gross_cents         bigint NOT NULL,
      -- What the operator asked for: an amount, or null for all that was left; and why.
      requested_cents     bigint,
      reason              text,
      -- The operator's Idempotency-Key: the same key again answers this refund.
      request_key         text UNIQUE,
      -- The ledger row that took the amount off the balance (the credit note's refund_id), and the
      -- one that put it back when the provider refused.
      withdraw_id         bigint NOT NULL UNIQUE REFERENCES transactions (id),
      reversal_id         bigint UNIQUE REFERENCES transactions (id),
      credit_note_id      text UNIQUE REFERENCES invoices (id),
      provider_refund_ref text,
      -- The last failure (an attempt that erred, or the provider's refusal).
      failure             text,
      attempts            integer NOT NULL DEFAULT 0,
      attempted_at        timestamptz,
      created_at          timestamptz NOT NULL DEFAULT now(),
      finished_at         timestamptz,
      CONSTRAINT payment_refunds_gross CHECK (gross_cents = net_cents + tax_cents),
      CONSTRAINT payment_refunds_completed_has_note CHECK ((status = 'completed') = (credit_note_id IS NOT NULL)),
      CONSTRAINT payment_refunds_failed_reversed CHECK ((status = 'failed') = (reversal_id IS NOT NULL))
    );
    -- One refund of a payment in flight at a time: the next one starts once it is settled.
    CREATE UNIQUE INDEX payment_refunds_one_pending ON payment_refunds (payment_id) WHERE status = 'pending';
    -- Pending refunds whose request died are finished by the worker's payment sweep.
    CREATE INDEX payment_refunds_pending ON payment_refunds ((coalesce(attempted_at, created_at))) WHERE status = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS payment_refunds`.execute(db);
}
