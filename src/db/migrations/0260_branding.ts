// The installation's branding (white label): one row, absent until an operator saves one — until
// then every page, mail and invoice keeps the defaults (name "Hostcloud", no logo, SMTP_FROM as it is).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE branding_settings (
      id            boolean PRIMARY KEY DEFAULT true CHECK (id),
      name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      -- A data URL (image/png or image/svg+xml), checked by the core before it is stored.
      logo          text,
      primary_color text NOT NULL CHECK (primary_color ~ '^#[0-9a-f]{6}$'),
      support_email text NOT NULL,
      support_url   text,
      terms_url     text,
      privacy_url   text,
      updated_at    timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS branding_settings`.execute(db);
}
