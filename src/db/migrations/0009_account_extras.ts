// Support tickets, sub-users (and their API keys), SSH keys, and what reseller discounts need on
// servers. The simulated compute platform keeps the SSH keys a machine was created with.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Ids are ticket numbers: random digits (so they are not guessable in sequence), 6 at first,
    -- more once a length gets crowded; the primary key settles any collision.
    CREATE TABLE tickets (
      id            text PRIMARY KEY CHECK (id ~ '^[1-9][0-9]{5,11}$'),
      account_id    text NOT NULL REFERENCES accounts (id),
      subject       text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
      department_id int REFERENCES departments (id),
      priority      text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
      status        text NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'answered', 'customer_reply', 'in_progress', 'pending', 'closed')),
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now(),
      closed_at     timestamptz,
      -- Soft delete: a deleted ticket leaves every list and answers 404, its thread is kept.
      deleted_at    timestamptz
    );
    CREATE INDEX tickets_account_newest ON tickets (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX tickets_account_status_newest ON tickets (account_id, status, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX tickets_newest ON tickets (created_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX tickets_status_newest ON tickets (status, created_at DESC, id DESC) WHERE deleted_at IS NULL;

    -- The thread: customer and staff messages, and staff's internal notes (never shown to customers).
    CREATE TABLE ticket_messages (
      id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ticket_id  text NOT NULL REFERENCES tickets (id),
      author     text NOT NULL CHECK (author IN ('customer', 'staff')),
      internal   boolean NOT NULL DEFAULT false,
      body       text NOT NULL CHECK (length(body) BETWEEN 1 AND 10000),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (NOT internal OR author = 'staff')
    );
    CREATE INDEX ticket_messages_thread ON ticket_messages (ticket_id, id);

    -- Invited by the operator (or v1) as pending. Permissions are scope names, kept on the row so
    -- that authentication reads a key, its account and its sub-user in one join.
    CREATE TABLE sub_users (
      id                 int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id         text NOT NULL REFERENCES accounts (id),
      email              text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      first_name         text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
      last_name          text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
      phone              text CHECK (length(phone) BETWEEN 1 AND 32),
      phone_country_code text CHECK (phone_country_code ~ '^[+][0-9]{1,4}$'),
      status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'inactive')),
      permissions        text[] NOT NULL DEFAULT '{}',
      -- scrypt (core/sub-users/password.ts); null when invited without one. Never returned.
      password_hash      text,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now(),
      deleted_at         timestamptz,
      -- The target of api_keys' composite key: a key's sub-user belongs to the key's account.
      UNIQUE (account_id, id)
    );
    CREATE UNIQUE INDEX sub_users_live_email ON sub_users (account_id, lower(email)) WHERE deleted_at IS NULL;
    CREATE INDEX sub_users_account ON sub_users (account_id, id) WHERE deleted_at IS NULL;

    ALTER TABLE api_keys ADD COLUMN sub_user_id int;
    ALTER TABLE api_keys ADD FOREIGN KEY (account_id, sub_user_id) REFERENCES sub_users (account_id, id);
    CREATE INDEX api_keys_sub_user ON api_keys (sub_user_id) WHERE sub_user_id IS NOT NULL;

    -- One row per key and account: the same key twice is refused by the unique index, race-free.
    CREATE TABLE ssh_keys (
      id          int GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id  text NOT NULL REFERENCES accounts (id),
      name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      public_key  text NOT NULL CHECK (length(public_key) <= 16384),
      key_type    text NOT NULL,
      bits        int NOT NULL CHECK (bits > 0),
      fingerprint text NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT ssh_keys_account_fingerprint UNIQUE (account_id, fingerprint)
    );

    -- The reseller discount a server holds on its monthly price (price_cents stays the list
    -- price): what it was charged less, so a refund of unused hours returns what was paid.
    ALTER TABLE servers ADD COLUMN discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);

    ALTER TABLE sim_vms ADD COLUMN ssh_keys text[] NOT NULL DEFAULT '{}';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE sim_vms DROP COLUMN ssh_keys;
    ALTER TABLE servers DROP COLUMN discount_cents;
    DROP TABLE ssh_keys;
    ALTER TABLE api_keys DROP COLUMN sub_user_id;
    DROP TABLE sub_users, ticket_messages, tickets;
  `.execute(db);
}
