// The customer's hosting page (GET /v2/web-hosting/{id}/login opens it without a panel password).
// - hosting_login_links gains who made the link: `access` ('write' for the owner and writers,
//   'read' for a reader) and the sub-user, so the page opened with it can do no more than they.
// - hosting_page_sessions: the session a used link starts, limited to that one hosting account;
//   the browser holds its token in the hc_hosting cookie and only its hash is stored.
// - sim_hosting_databases: the simulated panel's databases of an account (names only: the
//   simulated panel, like the native driver, never keeps a password).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE hosting_login_links
      ADD COLUMN access text NOT NULL DEFAULT 'write' CHECK (access IN ('read', 'write')),
      ADD COLUMN sub_user_id int REFERENCES sub_users(id);
    CREATE TABLE hosting_page_sessions (
      id text PRIMARY KEY,
      public_id text NOT NULL UNIQUE,
      hosting_id text NOT NULL REFERENCES web_hosting(id) ON DELETE CASCADE,
      account_id text NOT NULL REFERENCES accounts(id),
      sub_user_id int REFERENCES sub_users(id),
      access text NOT NULL CHECK (access IN ('read', 'write')),
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX hosting_page_sessions_expiry ON hosting_page_sessions (expires_at);
    CREATE TABLE sim_hosting_databases (
      account_id text NOT NULL REFERENCES sim_hosting_accounts(id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, name)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE sim_hosting_databases;
    DROP TABLE hosting_page_sessions;
    ALTER TABLE hosting_login_links DROP COLUMN sub_user_id, DROP COLUMN access;
  `.execute(db);
}
