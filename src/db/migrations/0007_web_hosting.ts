// Web hosting: the customers' accounts, the single-use links that log them into the control panel,
// and the simulated hosting panel's own world (its servers, accounts and SSO sessions).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE web_hosting (
      id                text PRIMARY KEY,
      account_id        text NOT NULL REFERENCES accounts (id),
      -- Normalised by the order (lower case, IDN as punycode), so equal names are equal text.
      domain            text NOT NULL CHECK (length(domain) BETWEEN 1 AND 253),
      package_id        int NOT NULL REFERENCES hosting_packages (id),
      status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'suspended', 'cancelled')),
      billing_cycle     text NOT NULL CHECK (billing_cycle IN ('monthly', 'yearly')),
      -- One cycle's price, fixed at order (a later catalog change does not reprice an account).
      price_cents       bigint NOT NULL CHECK (price_cents >= 0),
      -- What the latest charged cycle cost: a cancel with refund gives exactly this back.
      last_charge_cents bigint NOT NULL CHECK (last_charge_cents >= 0),
      period_started_at timestamptz NOT NULL,
      next_billing_at   timestamptz NOT NULL,
      -- Filled when the panel reports the account.
      panel_ref         text,
      username          text,
      server_hostname   text,
      cancel_reason     text CHECK (length(cancel_reason) <= 1000),
      cancelled_at      timestamptz,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
    );
    CREATE INDEX web_hosting_account_newest ON web_hosting (account_id, created_at DESC, id DESC);
    CREATE INDEX web_hosting_account_status_newest ON web_hosting (account_id, status, created_at DESC, id DESC);
    -- One live hosting account per domain on the whole platform, as a panel would refuse a second:
    -- race-free, whichever accounts order at once.
    CREATE UNIQUE INDEX web_hosting_live_domain ON web_hosting (domain) WHERE status <> 'cancelled';

    -- Our signed login links (src/core/signed-links.ts): a link is spent by one UPDATE of its row.
    CREATE TABLE hosting_login_links (
      ticket     text PRIMARY KEY,
      hosting_id text NOT NULL REFERENCES web_hosting (id),
      expires_at timestamptz NOT NULL,
      used_at    timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX hosting_login_links_expiry ON hosting_login_links (hosting_id, expires_at);

    -- The simulated hosting panel's own world. A real driver keeps this upstream.
    CREATE TABLE sim_hosting_servers (
      id          serial PRIMARY KEY,
      hostname    text NOT NULL UNIQUE,
      location_id int NOT NULL REFERENCES locations (id),
      capacity    int NOT NULL CHECK (capacity >= 0),
      created_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE sim_hosting_accounts (
      id             text PRIMARY KEY,
      -- The caller's request token (our operation id): asking twice returns the same account.
      request_token  text NOT NULL UNIQUE,
      server_id      int NOT NULL REFERENCES sim_hosting_servers (id),
      username       text NOT NULL CHECK (username ~ '^[a-z][a-z0-9]{0,15}$'),
      domain         text NOT NULL,
      package_name   text NOT NULL,
      quota_mb       int NOT NULL CHECK (quota_mb > 0),
      max_domains    int NOT NULL CHECK (max_domains > 0),
      contact_email  text NOT NULL,
      state          text NOT NULL CHECK (state IN ('creating', 'active', 'suspended', 'terminated')),
      suspend_reason text,
      created_at     timestamptz NOT NULL DEFAULT now(),
      updated_at     timestamptz NOT NULL DEFAULT now(),
      terminated_at  timestamptz
    );
    -- A username is unique on its server, a domain on the panel, while the account exists.
    CREATE UNIQUE INDEX sim_hosting_accounts_username ON sim_hosting_accounts (server_id, username) WHERE state <> 'terminated';
    CREATE UNIQUE INDEX sim_hosting_accounts_domain ON sim_hosting_accounts (domain) WHERE state <> 'terminated';
    CREATE INDEX sim_hosting_accounts_server ON sim_hosting_accounts (server_id) WHERE state <> 'terminated';
    CREATE TABLE sim_hosting_sso_sessions (
      token      text PRIMARY KEY,
      account_id text NOT NULL REFERENCES sim_hosting_accounts (id),
      expires_at timestamptz NOT NULL,
      used_at    timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE sim_hosting_sso_sessions, sim_hosting_accounts, sim_hosting_servers, hosting_login_links, web_hosting;
    DELETE FROM system_markers WHERE name = 'demo_hosting_servers_v1';
  `.execute(db);
}
