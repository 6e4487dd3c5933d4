// The hosting company's staff: members with a role, their sign-in (password, TOTP, recovery codes,
// sessions, set-password links), their API tokens, and the audit log every admin write appends to.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE staff_members (
      id                text PRIMARY KEY,
      email             text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      role              text NOT NULL CHECK (role IN ('owner', 'admin', 'support', 'billing', 'readonly')),
      status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
      -- scrypt, as the panel's (core/sub-users/password.ts); null until set through the link.
      password_hash     text,
      -- Base32 TOTP secret: being enrolled while totp_enabled_at is null, in force once it is set.
      totp_secret       text,
      totp_enabled_at   timestamptz,
      totp_last_step    bigint,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX staff_members_email ON staff_members (lower(email));

    CREATE TABLE staff_recovery_codes (
      staff_id   text NOT NULL REFERENCES staff_members (id) ON DELETE CASCADE,
      code_hash  text NOT NULL,
      used_at    timestamptz,
      PRIMARY KEY (staff_id, code_hash)
    );

    -- As panel_sessions; stage 'enrol' is a password accepted by someone who has no TOTP yet: it
    -- may only enrol (staff must have two-factor on before anything else).
    CREATE TABLE staff_sessions (
      id           text PRIMARY KEY,
      public_id    text NOT NULL UNIQUE,
      staff_id     text NOT NULL REFERENCES staff_members (id) ON DELETE CASCADE,
      stage        text NOT NULL CHECK (stage IN ('totp', 'enrol', 'full')),
      ip           text NOT NULL CHECK (length(ip) <= 64),
      user_agent   text NOT NULL CHECK (length(user_agent) <= 300),
      created_at   timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at   timestamptz NOT NULL,
      revoked_at   timestamptz
    );
    CREATE INDEX staff_sessions_member ON staff_sessions (staff_id, created_at DESC) WHERE revoked_at IS NULL;

    CREATE TABLE staff_links (
      token_hash text PRIMARY KEY,
      staff_id   text NOT NULL REFERENCES staff_members (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at    timestamptz
    );

    -- hc_staff_<random>: only the SHA-256 is kept, the prefix shows which token it is.
    CREATE TABLE staff_tokens (
      id           text PRIMARY KEY,
      staff_id     text NOT NULL REFERENCES staff_members (id),
      name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      prefix       text NOT NULL,
      token_hash   text NOT NULL UNIQUE,
      ip_allowlist text[],
      created_at   timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at   timestamptz
    );
    CREATE INDEX staff_tokens_member ON staff_tokens (staff_id, created_at DESC);

    -- Append-only: every admin write, in the write's own transaction.
    CREATE TABLE audit_log (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      at          timestamptz NOT NULL DEFAULT now(),
      actor_type  text NOT NULL CHECK (actor_type IN ('staff', 'admin_token', 'system')),
      actor_id    text,
      actor_email text,
      ip          text,
      action      text NOT NULL CHECK (length(action) BETWEEN 1 AND 100),
      target_type text,
      target_id   text,
      changes     jsonb NOT NULL DEFAULT '{}'::jsonb,
      request_id  text
    );
    CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
    CREATE INDEX audit_log_target ON audit_log (target_type, target_id, at DESC);
    CREATE INDEX audit_log_actor ON audit_log (actor_id, at DESC);

    CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the audit log is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();

    -- A notice to a staff member belongs to no account.
    ALTER TABLE notifications ALTER COLUMN account_id DROP NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE audit_log, staff_tokens, staff_links, staff_sessions, staff_recovery_codes, staff_members;
    DROP FUNCTION audit_log_is_append_only();
    DELETE FROM notifications WHERE account_id IS NULL;
    ALTER TABLE notifications ALTER COLUMN account_id SET NOT NULL;
  `.execute(db);
}
