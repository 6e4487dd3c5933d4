// Accounts, the ledger, API keys and the catalog. The ledger is the only way to move money:
// inserting a transaction row applies it to the account balance in the same statement (trigger),
// and a CHECK keeps the balance from ever going below zero, whatever the concurrency.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE accounts (
      id            text PRIMARY KEY,
      email         text NOT NULL,
      name          text NOT NULL,
      company       text,
      phone         text,
      country       text CHECK (country ~ '^[A-Z]{2}$'),
      status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'closed')),
      balance_cents bigint NOT NULL DEFAULT 0 CONSTRAINT accounts_balance_not_negative CHECK (balance_cents >= 0),
      is_reseller   boolean NOT NULL DEFAULT false,
      discount_type text,
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX accounts_email_unique ON accounts (lower(email));

    CREATE TABLE transactions (
      id                  bigserial PRIMARY KEY,
      account_id          text NOT NULL REFERENCES accounts (id),
      type                text NOT NULL CHECK (type IN ('deposit', 'withdraw', 'refund')),
      amount_cents        bigint NOT NULL CHECK (amount_cents > 0),
      balance_after_cents bigint NOT NULL DEFAULT 0,
      description         text NOT NULL,
      status              text NOT NULL DEFAULT 'completed',
      created_at          timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX transactions_account_newest ON transactions (account_id, id DESC);
    CREATE INDEX transactions_account_type_newest ON transactions (account_id, type, id DESC);

    CREATE FUNCTION transactions_apply_to_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE accounts
         SET balance_cents = balance_cents + CASE WHEN NEW.type = 'withdraw' THEN -NEW.amount_cents ELSE NEW.amount_cents END,
             updated_at = now()
       WHERE id = NEW.account_id
      RETURNING balance_cents INTO NEW.balance_after_cents;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'account % does not exist', NEW.account_id USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER transactions_apply_to_balance BEFORE INSERT ON transactions
      FOR EACH ROW EXECUTE FUNCTION transactions_apply_to_balance();

    -- The balance is the sum of the ledger: only the ledger trigger above may change it.
    CREATE FUNCTION accounts_balance_via_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.balance_cents IS DISTINCT FROM OLD.balance_cents AND pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'balance_cents changes only through a transactions row' USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER accounts_balance_via_ledger BEFORE UPDATE OF balance_cents ON accounts
      FOR EACH ROW EXECUTE FUNCTION accounts_balance_via_ledger();

    -- Ledger rows are history: they are never edited or removed.
    CREATE FUNCTION transactions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger rows cannot be changed';
    END $$;
    CREATE TRIGGER transactions_immutable BEFORE UPDATE OR DELETE ON transactions
      FOR EACH ROW EXECUTE FUNCTION transactions_immutable();
    CREATE TRIGGER transactions_no_truncate BEFORE TRUNCATE ON transactions
      FOR EACH STATEMENT EXECUTE FUNCTION transactions_immutable();

    CREATE TABLE api_keys (
      id           text PRIMARY KEY,
      account_id   text NOT NULL REFERENCES accounts (id),
      name         text NOT NULL,
      prefix       text NOT NULL,
      key_hash     text NOT NULL UNIQUE,
      is_test      boolean NOT NULL DEFAULT false,
      scopes       text[],
      ip_allowlist text[] NOT NULL CHECK (cardinality(ip_allowlist) >= 1),
      last_used_at timestamptz,
      revoked_at   timestamptz,
      created_at   timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX api_keys_account ON api_keys (account_id, created_at);

    CREATE TABLE locations (
      id        serial PRIMARY KEY,
      name      text NOT NULL,
      code      text NOT NULL UNIQUE,
      country   text NOT NULL,
      provider  text NOT NULL,
      available boolean NOT NULL DEFAULT true
    );

    CREATE TABLE plans (
      id           serial PRIMARY KEY,
      name         text NOT NULL,
      cpu_cores    int NOT NULL CHECK (cpu_cores > 0),
      ram_mb       int NOT NULL CHECK (ram_mb > 0),
      storage_gb   int NOT NULL CHECK (storage_gb > 0),
      bandwidth_gb int NOT NULL CHECK (bandwidth_gb >= 0),
      price_cents  bigint NOT NULL CHECK (price_cents >= 0),
      available    boolean NOT NULL DEFAULT true
    );

    CREATE TABLE operating_systems (
      id        serial PRIMARY KEY,
      family    text NOT NULL,
      version   text NOT NULL,
      slug      text NOT NULL UNIQUE,
      available boolean NOT NULL DEFAULT true,
      UNIQUE (family, version)
    );

    CREATE TABLE tld_prices (
      tld                    text PRIMARY KEY CHECK (tld ~ '^\\.[a-z0-9-]+(\\.[a-z0-9-]+)*$'),
      register_cents         bigint NOT NULL CHECK (register_cents >= 0),
      renewal_cents          bigint NOT NULL CHECK (renewal_cents >= 0),
      transfer_cents         bigint NOT NULL CHECK (transfer_cents >= 0),
      supports_whois_privacy boolean NOT NULL DEFAULT true,
      years_min              int NOT NULL DEFAULT 1 CHECK (years_min >= 1),
      years_max              int NOT NULL DEFAULT 10 CHECK (years_max >= years_min)
    );

    CREATE TABLE hosting_packages (
      id                  serial PRIMARY KEY,
      name                text NOT NULL,
      disk_quota_mb       int NOT NULL CHECK (disk_quota_mb > 0),
      max_domains         int NOT NULL CHECK (max_domains > 0),
      monthly_price_cents bigint NOT NULL CHECK (monthly_price_cents >= 0),
      yearly_price_cents  bigint NOT NULL CHECK (yearly_price_cents >= 0),
      active              boolean NOT NULL DEFAULT true
    );

    CREATE TABLE departments (
      id     serial PRIMARY KEY,
      name   text NOT NULL,
      email  text NOT NULL,
      active boolean NOT NULL DEFAULT true
    );

    -- A ladder: tiers never overlap, so each server count has at most one tier, and only the
    -- top tier can be open-ended (two open-ended tiers, or one below another, would overlap).
    CREATE TABLE reseller_tiers (
      id                  serial PRIMARY KEY,
      min_servers         int NOT NULL UNIQUE CHECK (min_servers >= 0),
      max_servers         int CHECK (max_servers IS NULL OR max_servers >= min_servers),
      discount_percentage numeric(5, 2) NOT NULL CHECK (discount_percentage >= 0 AND discount_percentage <= 100),
      CONSTRAINT reseller_tiers_no_overlap EXCLUDE USING gist (int4range(min_servers, max_servers, '[]') WITH &&)
    );

    -- Per-unit prices of custom-mode servers and add-ons, per monthly cycle.
    CREATE TABLE unit_prices (
      unit        text PRIMARY KEY,
      price_cents bigint NOT NULL CHECK (price_cents >= 0)
    );

    -- The v1-only package families (read-only catalogs in v1).
    CREATE TABLE email_packages (
      id serial PRIMARY KEY, name text NOT NULL, disk_quota_mb int NOT NULL, max_accounts int NOT NULL,
      monthly_price_cents bigint NOT NULL CHECK (monthly_price_cents >= 0)
    );
    CREATE TABLE colocation_packages (
      id serial PRIMARY KEY, name text NOT NULL, type text NOT NULL,
      monthly_price_cents bigint NOT NULL CHECK (monthly_price_cents >= 0)
    );
    CREATE TABLE dedicated_packages (
      id serial PRIMARY KEY, name text NOT NULL, cpu_cores int NOT NULL, ram_gb int NOT NULL, storage_gb int NOT NULL,
      monthly_price_cents bigint NOT NULL CHECK (monthly_price_cents >= 0)
    );
    CREATE TABLE ip_subnet_packages (
      id serial PRIMARY KEY, name text NOT NULL, subnet_size int NOT NULL CHECK (subnet_size BETWEEN 8 AND 128),
      monthly_price_cents bigint NOT NULL CHECK (monthly_price_cents >= 0)
    );

    -- Markers such as "the demo catalog was seeded", so one-off work runs once.
    CREATE TABLE system_markers (
      name       text PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE system_markers, ip_subnet_packages, dedicated_packages, colocation_packages, email_packages,
      unit_prices, reseller_tiers, departments, hosting_packages, tld_prices, operating_systems, plans,
      locations, api_keys, transactions, accounts CASCADE;
    DROP FUNCTION transactions_apply_to_balance(), transactions_immutable(), accounts_balance_via_ledger();
  `.execute(db);
}
