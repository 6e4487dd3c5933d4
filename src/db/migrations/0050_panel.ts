// The customer panel: who signs in (an account's owner or one of its sub-users), their sessions,
// single-use links (invitation, password reset, email verification), two-factor recovery codes,
// and the sign-in throttle's counters.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One row per person who signs in to the panel. An owner row has no sub_user_id; a sub-user's
    -- row belongs to that sub-user of the same account. The email signs in, so it is unique across
    -- every account (a sub-user's email is unique only within its account).
    CREATE TABLE panel_users (
      id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id        text NOT NULL REFERENCES accounts (id),
      sub_user_id       int,
      email             text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      -- scrypt (core/sub-users/password.ts); null until set through a link.
      password_hash     text,
      email_verified_at timestamptz,
      -- Base32 TOTP secret: being enrolled while totp_enabled_at is null, in force once it is set.
      totp_secret       text,
      totp_enabled_at   timestamptz,
      -- The last accepted TOTP time step: a code is accepted once.
      totp_last_step    bigint,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (account_id, sub_user_id) REFERENCES sub_users (account_id, id)
    );
    CREATE UNIQUE INDEX panel_users_email ON panel_users (lower(email));
    CREATE UNIQUE INDEX panel_users_owner ON panel_users (account_id) WHERE sub_user_id IS NULL;
    CREATE UNIQUE INDEX panel_users_sub_user ON panel_users (sub_user_id) WHERE sub_user_id IS NOT NULL;

    -- One-time recovery codes of two-factor sign-in, stored as SHA-256 hashes.
    CREATE TABLE panel_recovery_codes (
      user_id    bigint NOT NULL REFERENCES panel_users (id) ON DELETE CASCADE,
      code_hash  text NOT NULL,
      used_at    timestamptz,
      PRIMARY KEY (user_id, code_hash)
    );

    -- Sessions: the cookie holds a random token, the row its SHA-256 (id). public_id names a session
    -- in the list and in a revoke. stage 'totp' is a password accepted, waiting for the code.
    CREATE TABLE panel_sessions (
      id           text PRIMARY KEY,
      public_id    text NOT NULL UNIQUE,
      user_id      bigint NOT NULL REFERENCES panel_users (id) ON DELETE CASCADE,
      stage        text NOT NULL CHECK (stage IN ('totp', 'full')),
      ip           text NOT NULL CHECK (length(ip) <= 64),
      user_agent   text NOT NULL CHECK (length(user_agent) <= 300),
      created_at   timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      -- The absolute end; the idle end is last_seen_at plus the idle limit.
      expires_at   timestamptz NOT NULL,
      revoked_at   timestamptz
    );
    CREATE INDEX panel_sessions_user ON panel_sessions (user_id, created_at DESC) WHERE revoked_at IS NULL;

    -- Single-use links mailed to a person: the URL holds a random token, the row its SHA-256.
    CREATE TABLE panel_links (
      token_hash text PRIMARY KEY,
      kind       text NOT NULL CHECK (kind IN ('invitation', 'password_reset', 'email_verification')),
      user_id    bigint NOT NULL REFERENCES panel_users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at    timestamptz
    );
    CREATE INDEX panel_links_user ON panel_links (user_id, kind) WHERE used_at IS NULL;

    -- Sign-in attempt counters (rate-limiter-flexible's PostgreSQL store): shared by every API process.
    CREATE TABLE panel_sign_in_limits (
      key    varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE panel_sign_in_limits, panel_links, panel_sessions, panel_recovery_codes, panel_users`.execute(db);
}
