// IP address management is the core's, whatever the compute driver, and so are console sessions
// (the LXD console spends the same tickets as the simulated shell): their tables leave the
// simulated platform's names. Nothing else changes: same columns, same rules, same locks.
//
// - sim_ip_pools -> ip_pools.
// - sim_ip_leases -> ip_addresses: a row is an address a pool has handed out at least once, and it
//   stays after a release (vm_id null, released_at set) to rest and be handed out again. It
//   outlives any one lease, and the admin API lists these rows as a pool's addresses.
// - sim_console_sessions -> console_sessions.
// - The cool-down (IP_COOLDOWN_S, which each process records at start) moves from sim_settings
//   'ip_cooldown_s' to ip_settings 'cooldown_s'.
// - sim_lease_addresses -> hc_lease_addresses. PL/pgSQL keeps a function's body as text, so a
//   renamed table breaks every function that names it: the lease function is rewritten from its
//   own definition (pg_get_functiondef, as 0020 and 0031 did) with the new names, and so are the
//   three that call it (sim_create_vm, sim_provision_vm, hc_reserve_machine).
// Constraints, indexes and the id sequence take the new names too. sim_vms, the machine records
// every driver keeps, keeps its name: its rows and functions are the simulated platform's
// bookkeeping that the LXD driver reuses, not address management.
import { type Kysely, sql } from 'kysely';

const TABLES: [string, string][] = [['sim_ip_pools', 'ip_pools'], ['sim_ip_leases', 'ip_addresses'], ['sim_console_sessions', 'console_sessions']];
const LEASE_ARGS = '(int, int, text, int)';
const CALLERS = [
  'sim_create_vm(text, text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)',
  'sim_provision_vm(text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)',
  'hc_reserve_machine(text, text, int, text, int, int, int, text, text[], text, jsonb, int, int, boolean)',
];
const OLD_COOLDOWN = "FROM sim_settings WHERE name = 'ip_cooldown_s'";
const NEW_COOLDOWN = "FROM ip_settings WHERE name = 'cooldown_s'";

/** A whole identifier: `ip_pools` inside `sim_ip_pools` is not one (`_` is a word character). */
const word = (name: string) => new RegExp(`\\b${name}\\b`, 'g');

async function definition(db: Kysely<unknown>, fn: string): Promise<string> {
  const r = await sql<{ def: string }>`SELECT pg_get_functiondef(${fn}::regprocedure) AS def`.execute(db);
  return r.rows[0]!.def;
}

/** Rewrites a function from its own definition; `expect` must be in it (else it is not the function these migrations made). */
async function rewrite(db: Kysely<unknown>, fn: string, expect: string, edit: (def: string) => string): Promise<void> {
  const def = await definition(db, fn);
  if (!def.includes(expect)) throw new Error(`0070: ${fn} does not mention ${expect}`);
  await sql.raw(edit(def)).execute(db);
}

/** Renames a table and the constraints, indexes and sequence named after it. */
async function renameTable(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`ALTER TABLE ${sql.table(from)} RENAME TO ${sql.table(to)}`.execute(db);
  const renamed = (name: string) => sql.id(to + name.slice(from.length));
  // Constraints first: renaming one renames the index behind it (primary key, unique, exclusion).
  const constraints = await sql<{ name: string }>`
    SELECT conname AS name FROM pg_constraint WHERE conrelid = ${to}::regclass AND starts_with(conname, ${`${from}_`}) ORDER BY conname`.execute(db);
  for (const { name } of constraints.rows) {
    await sql`ALTER TABLE ${sql.table(to)} RENAME CONSTRAINT ${sql.id(name)} TO ${renamed(name)}`.execute(db);
  }
  const relations = await sql<{ name: string; kind: string }>`
    SELECT c.relname AS name, c.relkind AS kind FROM pg_class c
    WHERE starts_with(c.relname, ${`${from}_`})
      AND (c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = ${to}::regclass)
        OR c.oid IN (SELECT objid FROM pg_depend WHERE classid = 'pg_class'::regclass AND refobjid = ${to}::regclass AND deptype = 'a'))
    ORDER BY c.relname`.execute(db);
  for (const { name, kind } of relations.rows) {
    await sql`ALTER ${sql.raw(kind === 'S' ? 'SEQUENCE' : 'INDEX')} ${sql.id(name)} RENAME TO ${renamed(name)}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [from, to] of TABLES) await renameTable(db, from, to);
  await sql`
    CREATE TABLE ip_settings (
      name  text PRIMARY KEY,
      value jsonb NOT NULL
    );
    INSERT INTO ip_settings (name, value) SELECT 'cooldown_s', value FROM sim_settings WHERE name = 'ip_cooldown_s';
    DELETE FROM sim_settings WHERE name = 'ip_cooldown_s';
    ALTER FUNCTION ${sql.raw(`sim_lease_addresses${LEASE_ARGS}`)} RENAME TO hc_lease_addresses;
  `.execute(db);
  await rewrite(db, `hc_lease_addresses${LEASE_ARGS}`, OLD_COOLDOWN, (def) => def
    .replace(word('sim_ip_pools'), 'ip_pools').replace(word('sim_ip_leases'), 'ip_addresses').replace(OLD_COOLDOWN, NEW_COOLDOWN));
  for (const fn of CALLERS) await rewrite(db, fn, 'sim_lease_addresses(', (def) => def.replace(word('sim_lease_addresses'), 'hc_lease_addresses'));
  // Anything still naming the old tables would fail only when called: refuse to finish instead.
  const oldNames = String.raw`\m(sim_ip_pools|sim_ip_leases|sim_console_sessions|sim_lease_addresses)\M`;
  const stale = await sql<{ fn: string }>`SELECT oid::regprocedure::text AS fn FROM pg_proc WHERE prosrc ~ ${oldNames}`.execute(db);
  if (stale.rows.length) throw new Error(`0070: still naming the old tables: ${stale.rows.map((r) => r.fn).join(', ')}`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const fn of CALLERS) await rewrite(db, fn, 'hc_lease_addresses(', (def) => def.replace(word('hc_lease_addresses'), 'sim_lease_addresses'));
  await rewrite(db, `hc_lease_addresses${LEASE_ARGS}`, NEW_COOLDOWN, (def) => def
    .replace(word('ip_pools'), 'sim_ip_pools').replace(word('ip_addresses'), 'sim_ip_leases').replace(NEW_COOLDOWN, OLD_COOLDOWN));
  await sql`
    ALTER FUNCTION ${sql.raw(`hc_lease_addresses${LEASE_ARGS}`)} RENAME TO sim_lease_addresses;
    INSERT INTO sim_settings (name, value) SELECT 'ip_cooldown_s', value FROM ip_settings WHERE name = 'cooldown_s'
      ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value;
    DROP TABLE ip_settings;
  `.execute(db);
  for (const [from, to] of [...TABLES].reverse()) await renameTable(db, to, from);
}
