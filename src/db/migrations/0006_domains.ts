// Domains, the TLDs that need a registrant contact, and the simulated registrar's own world.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Registries such as DENIC (.de) or EURid (.eu) need the registrant's contact at registration.
    ALTER TABLE tld_prices ADD COLUMN requires_contact boolean NOT NULL DEFAULT false;

    CREATE TABLE domains (
      id                 text PRIMARY KEY,
      account_id         text NOT NULL REFERENCES accounts (id),
      -- ASCII (punycode), lower case, no trailing dot: names.ts normalised it.
      name               text NOT NULL CHECK (length(name) BETWEEN 3 AND 253 AND name ~ '^[a-z0-9][a-z0-9.-]*[a-z0-9]$'),
      -- A TLD renamed in the price list carries its domains along.
      tld                text NOT NULL REFERENCES tld_prices (tld) ON UPDATE CASCADE,
      -- pending (registering) -> active; transfer_pending -> active; a registration or transfer that
      -- finally failed is cancelled (and refunded), which frees the name.
      status             text NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'active', 'transfer_pending', 'expired', 'cancelled')),
      auto_renew         boolean NOT NULL,
      transfer_lock      boolean NOT NULL,
      whois_privacy      boolean NOT NULL,
      registration_years int NOT NULL CHECK (registration_years BETWEEN 1 AND 10),
      nameservers        text[] NOT NULL CHECK (cardinality(nameservers) BETWEEN 2 AND 13),
      -- Our billing service of the domain; ledger descriptions name it.
      service_id         text NOT NULL UNIQUE,
      registrar          text NOT NULL,
      -- The registry's object id (EPP roid), once registered or transferred.
      provider_ref       text,
      -- The EPP auth code as last read from the registrar (GET /domains/{id}/auth-code).
      auth_code          text,
      registered_at      timestamptz,
      expires_at         timestamptz,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX domains_account_newest ON domains (account_id, created_at DESC, id DESC);
    CREATE INDEX domains_account_status_newest ON domains (account_id, status, created_at DESC, id DESC);
    -- A name is held by one live domain across every account: two accounts racing for it cannot
    -- both commit (the loser's transaction, charge included, rolls back).
    CREATE UNIQUE INDEX domains_live_name ON domains (name) WHERE status <> 'cancelled';

    -- The simulated registrar's registry. A real driver keeps this upstream.
    CREATE TABLE sim_registry_domains (
      name          text PRIMARY KEY,
      -- 'us' while we sponsor it; otherwise the name of another registrar (operator-seeded names).
      sponsor       text NOT NULL,
      roid          text NOT NULL UNIQUE,
      auth_code     text NOT NULL,
      nameservers   text[] NOT NULL DEFAULT '{}',
      transfer_lock boolean NOT NULL DEFAULT false,
      whois_privacy boolean NOT NULL DEFAULT false,
      -- The request token of the create that made it: a retried create answers with this row.
      created_by    text UNIQUE,
      created_at    timestamptz NOT NULL DEFAULT now(),
      expires_at    timestamptz NOT NULL,
      updated_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX sim_registry_domains_sponsor ON sim_registry_domains (sponsor, name);
    CREATE TABLE sim_registry_transfers (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      -- One transfer per request token: asking again answers with it.
      token        text NOT NULL UNIQUE,
      name         text NOT NULL REFERENCES sim_registry_domains (name),
      years        int NOT NULL CHECK (years BETWEEN 1 AND 10),
      from_sponsor text NOT NULL,
      state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'completed', 'rejected')),
      requested_at timestamptz NOT NULL DEFAULT now(),
      -- The losing registrar approves once this time has come.
      approve_at   timestamptz NOT NULL,
      finished_at  timestamptz,
      reason       text
    );
    CREATE UNIQUE INDEX sim_registry_transfers_one_pending ON sim_registry_transfers (name) WHERE state = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE sim_registry_transfers, sim_registry_domains, domains;
    ALTER TABLE tld_prices DROP COLUMN requires_contact;
  `.execute(db);
}
