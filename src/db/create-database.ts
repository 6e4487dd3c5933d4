import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { guardPool } from './connection.ts';

/** A one-connection pool to a maintenance database; a dropped connection must not crash us. */
function adminPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  guardPool(pool);
  return pool;
}

/** Creates `name` on the server at `adminUrl` unless it exists (optionally as a copy of `template`). */
export { adminPool };

export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const db = new Kysely<{ pg_database: { datname: string } }>({ dialect: new PostgresDialect({ pool: adminPool(adminUrl) }) });
  try {
    const found = await db.selectFrom('pg_database').select('datname').where('datname', '=', name).executeTakeFirst();
    if (found) return;
    await (template
      ? sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(template)}`
      : sql`CREATE DATABASE ${sql.id(name)}`).execute(db);
  } catch (e) {
    // Two processes creating it at once: the loser sees duplicate_database, which is fine.
    if ((e as { code?: string }).code !== '42P04') throw e;
  } finally {
    await db.destroy();
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: adminPool(adminUrl) }) });
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(db);
  } finally {
    await db.destroy();
  }
}
