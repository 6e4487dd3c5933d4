// Top-up and invoices: customers' payments through a payment provider, the invoices and credit
// notes they issue, the operator's invoice settings and tax rates, and the simulated provider's
// own world (sim_payments).
//
// What the constraints guarantee, whatever the concurrency:
//  - a payment credits at most one deposit: `payments` is unique per (provider, provider_ref) and
//    per deposit, and is `paid` exactly when it names its deposit;
//  - one invoice per deposit; invoice numbers are gapless per series and year: the number is drawn
//    from `invoice_counters` by an UPDATE in the transaction that inserts the invoice, so a
//    rollback gives the number back and concurrent issuers queue on the counter row;
//  - an issued invoice or credit note never changes: a trigger refuses UPDATE, DELETE and TRUNCATE.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE invoice_settings (
      id             boolean PRIMARY KEY DEFAULT true CHECK (id),
      company_name   text NOT NULL DEFAULT '',
      address        text NOT NULL DEFAULT '',
      tax_id         text NOT NULL DEFAULT '',
      invoice_prefix text NOT NULL DEFAULT 'INV' CHECK (invoice_prefix ~ '^[A-Z0-9]{1,12}$'),
      footer         text NOT NULL DEFAULT '',
      updated_at     timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO invoice_settings DEFAULT VALUES;

    -- The tax of a top-up follows the customer's country; a country without a row pays none.
    CREATE TABLE tax_rates (
      country    text PRIMARY KEY CHECK (country ~ '^[A-Z]{2}$'),
      -- Hundredths of a percent: 1900 = 19.00 %.
      rate_bp    integer NOT NULL CHECK (rate_bp BETWEEN 0 AND 10000),
      label      text NOT NULL DEFAULT 'Tax',
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- What an invoice names besides the account's name, company, email and country.
    CREATE TABLE account_billing_details (
      account_id text PRIMARY KEY REFERENCES accounts (id),
      address    text NOT NULL DEFAULT '',
      tax_id     text NOT NULL DEFAULT '',
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE payments (
      id                  text PRIMARY KEY,
      account_id          text NOT NULL REFERENCES accounts (id),
      provider            text NOT NULL CHECK (provider IN ('simulated', 'stripe')),
      -- The provider's id of the payment (a Checkout Session), set once the provider made it.
      provider_ref        text,
      -- What a refund names at the provider (Stripe: the PaymentIntent), learnt when it is paid.
      provider_charge_ref text,
      status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'declined', 'expired', 'failed')),
      -- net is what the balance is credited; gross = net + tax is what the customer pays.
      net_cents           bigint NOT NULL CHECK (net_cents > 0),
      tax_cents           bigint NOT NULL CHECK (tax_cents >= 0),
      gross_cents         bigint NOT NULL,
      tax_rate_bp         integer NOT NULL CHECK (tax_rate_bp BETWEEN 0 AND 10000),
      tax_label           text NOT NULL,
      tax_country         text,
      currency            text NOT NULL DEFAULT 'USD',
      checkout_url        text,
      -- The sub-user who started it (null: the account's owner or the operator).
      sub_user_id         bigint,
      deposit_id          bigint UNIQUE REFERENCES transactions (id),
      failure             text,
      created_at          timestamptz NOT NULL DEFAULT now(),
      settled_at          timestamptz,
      CONSTRAINT payments_once_per_provider_ref UNIQUE (provider, provider_ref),
      CONSTRAINT payments_gross CHECK (gross_cents = net_cents + tax_cents),
      CONSTRAINT payments_paid_has_deposit CHECK ((status = 'paid') = (deposit_id IS NOT NULL))
    );
    CREATE INDEX payments_account ON payments (account_id, created_at DESC, id DESC);

    -- Signed webhook requests already taken (the hash of the signature header): the very same
    -- request sent again is a replay and is refused. Rows older than the signature tolerance are
    -- pruned (such a request is refused for its timestamp anyway).
    CREATE TABLE payment_webhook_receipts (
      provider       text NOT NULL,
      signature_hash text NOT NULL,
      event_id       text NOT NULL,
      received_at    timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, signature_hash)
    );
    CREATE INDEX payment_webhook_receipts_age ON payment_webhook_receipts (received_at);

    CREATE TABLE invoice_counters (
      series      text NOT NULL CHECK (series IN ('invoice', 'credit_note')),
      year        integer NOT NULL,
      last_number integer NOT NULL CHECK (last_number > 0),
      PRIMARY KEY (series, year)
    );

    CREATE TABLE invoices (
      id                 text PRIMARY KEY,
      kind               text NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
      number             text NOT NULL UNIQUE,
      year               integer NOT NULL,
      seq                integer NOT NULL CHECK (seq > 0),
      account_id         text NOT NULL REFERENCES accounts (id),
      -- The deposit the invoice is for, or the one a credit note refunds.
      deposit_id         bigint NOT NULL REFERENCES transactions (id),
      payment_id         text REFERENCES payments (id),
      -- A credit note: the ledger row that took the refunded amount off the balance, and the invoice it corrects.
      refund_id          bigint UNIQUE REFERENCES transactions (id),
      credited_invoice_id text REFERENCES invoices (id),
      issued_at          timestamptz NOT NULL,
      currency           text NOT NULL,
      net_cents          bigint NOT NULL CHECK (net_cents > 0),
      tax_cents          bigint NOT NULL CHECK (tax_cents >= 0),
      gross_cents        bigint NOT NULL,
      tax_rate_bp        integer NOT NULL,
      tax_label          text NOT NULL,
      description        text NOT NULL,
      reason             text,
      -- The operator's and the customer's details as they were at issue.
      seller             jsonb NOT NULL,
      buyer              jsonb NOT NULL,
      CONSTRAINT invoices_number_once UNIQUE (kind, year, seq),
      CONSTRAINT invoices_gross CHECK (gross_cents = net_cents + tax_cents),
      CONSTRAINT invoices_credit_note_refers CHECK ((kind = 'credit_note') = (credited_invoice_id IS NOT NULL AND refund_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX invoices_one_per_deposit ON invoices (deposit_id) WHERE kind = 'invoice';
    CREATE INDEX invoices_account ON invoices (account_id, issued_at DESC, id DESC);
    CREATE INDEX invoices_issued ON invoices (issued_at DESC, id DESC);
    CREATE INDEX invoices_credited ON invoices (credited_invoice_id) WHERE credited_invoice_id IS NOT NULL;

    CREATE FUNCTION invoices_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'invoices are immutable once issued: % refused (issue a credit note instead)', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
    END $$;
    CREATE TRIGGER invoices_no_update BEFORE UPDATE OR DELETE ON invoices FOR EACH ROW EXECUTE FUNCTION invoices_immutable();
    CREATE TRIGGER invoices_no_truncate BEFORE TRUNCATE ON invoices FOR EACH STATEMENT EXECUTE FUNCTION invoices_immutable();

    -- The simulated payment provider's world: its checkout sessions, as a real provider keeps them.
    CREATE TABLE sim_payments (
      id             text PRIMARY KEY,
      amount_cents   bigint NOT NULL CHECK (amount_cents > 0),
      currency       text NOT NULL,
      description    text NOT NULL,
      reference      text NOT NULL,
      success_url    text NOT NULL,
      cancel_url     text NOT NULL,
      status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'declined', 'expired')),
      refunded_cents bigint NOT NULL DEFAULT 0,
      expires_at     timestamptz NOT NULL,
      created_at     timestamptz NOT NULL DEFAULT now(),
      paid_at        timestamptz,
      CHECK (refunded_cents BETWEEN 0 AND amount_cents)
    );
    CREATE TABLE sim_payment_refunds (
      idempotency_key text PRIMARY KEY,
      payment_id      text NOT NULL REFERENCES sim_payments (id),
      amount_cents    bigint NOT NULL CHECK (amount_cents > 0),
      created_at      timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS sim_payment_refunds;
    DROP TABLE IF EXISTS sim_payments;
    DROP TABLE IF EXISTS invoices;
    DROP FUNCTION IF EXISTS invoices_immutable();
    DROP TABLE IF EXISTS invoice_counters;
    DROP TABLE IF EXISTS payment_webhook_receipts;
    DROP TABLE IF EXISTS payments;
    DROP TABLE IF EXISTS account_billing_details;
    DROP TABLE IF EXISTS tax_rates;
    DROP TABLE IF EXISTS invoice_settings;
  `.execute(db);
}
