// Named statements (src/db/prepared.ts): planned once per connection, never a failure when a
// migration changes a table under them, bounded per connection, and off on request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { classifyDatabaseError } from '../../src/db/failures.ts';
import { MAX_PER_CONNECTION } from '../../src/db/prepared.ts';

const adminUrl = process.env.HC_TEST_ADMIN_URL!;
const name = `${process.env.HC_TEST_PREFIX}_prepared_${process.pid}`;
let url: string;
const opened: Database[] = [];

before(async () => {
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  url = u.toString();
  const setup = connect(url, { max: 1 });
  await sql`CREATE TABLE things (id int PRIMARY KEY, label text NOT NULL)`.execute(setup.db);
  await sql`INSERT INTO things VALUES (1, 'one'), (2, 'two')`.execute(setup.db);
  await setup.close();
});

after(async () => {
  for (const d of opened) await d.close();
  await dropDatabase(adminUrl, name);
});

/** One connection, so every statement of a test meets the same server process. */
function single(preparedStatements?: boolean): Database {
  const d = connect(url, { max: 1, preparedStatements });
  opened.push(d);
  return d;
}

const preparedNames = async (d: Database) =>
  (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`.execute(d.db)).rows.map((r) => r.name);

const byId = (d: Database, id: number) => d.db.selectFrom('things' as never).selectAll().where('id' as never, '=', id as never).executeTakeFirst();

test('a parameterized statement is prepared once per connection and reused; one without parameters is not named', async () => {
  const d = single();
  assert.deepEqual(await byId(d, 1), { id: 1, label: 'one' });
  assert.deepEqual(await byId(d, 2), { id: 2, label: 'two' });
  await sql`SELECT 1`.execute(d.db);
  const names = await preparedNames(d);
  assert.equal(names.filter((n) => n.startsWith('hc_')).length, 1, names.join(', '));
});

test('DATABASE_PREPARED_STATEMENTS=false: nothing is prepared', async () => {
  const d = single(false);
  assert.deepEqual(await byId(d, 1), { id: 1, label: 'one' });
  assert.deepEqual(await preparedNames(d), []);
});

test('a migration that changes a table under a prepared SELECT *: the next query still answers (sent again unnamed)', async () => {
  const d = single();
  assert.deepEqual(await byId(d, 1), { id: 1, label: 'one' });
  const other = single();
  await sql`ALTER TABLE things ADD COLUMN extra text`.execute(other.db);
  try {
    assert.deepEqual(await byId(d, 1), { id: 1, label: 'one', extra: null });
    assert.deepEqual(await byId(d, 2), { id: 2, label: 'two', extra: null }, 'and afterwards, unnamed on this connection');
  } finally {
    await sql`ALTER TABLE things DROP COLUMN extra`.execute(other.db);
  }
});

test('inside a transaction the stale statement fails the transaction as transient contention (503); the retry succeeds', async () => {
  const d = single();
  assert.deepEqual(await byId(d, 1), { id: 1, label: 'one' });
  const other = single();
  await sql`ALTER TABLE things ADD COLUMN extra2 text`.execute(other.db);
  try {
    const failed = await d.db.transaction().execute(async (trx) => {
      await trx.selectFrom('things' as never).selectAll().where('id' as never, '=', 1 as never).executeTakeFirst();
    }).then(() => null, (e: unknown) => e);
    assert.ok(failed, 'the transaction failed');
    assert.equal(classifyDatabaseError(failed), 'contention');
    const again = await d.db.transaction().execute((trx) => trx.selectFrom('things' as never).selectAll().where('id' as never, '=', 1 as never).executeTakeFirst());
    assert.deepEqual(again, { id: 1, label: 'one', extra2: null });
  } finally {
    await sql`ALTER TABLE things DROP COLUMN extra2`.execute(other.db);
  }
});

test(`at most ${MAX_PER_CONNECTION} statements are prepared per connection; later ones run unnamed`, async () => {
  const d = single();
  for (let i = 0; i < MAX_PER_CONNECTION + 20; i++) {
    // A distinct text each time (the alias), as distinct queries of an application would be.
    const r = await sql<{ n: number }>`SELECT ${i}::int AS ${sql.ref(`n${i}`)}`.execute(d.db);
    assert.equal(Object.values(r.rows[0]!)[0], i);
  }
  const names = await preparedNames(d);
  assert.equal(names.filter((n) => n.startsWith('hc_')).length, MAX_PER_CONNECTION);
});

test('a named statement that outlasts the read timeout drops its connection (the next query gets a fresh one, not the stuck one)', { timeout: 30_000 }, async () => {
  // Statement timeout 100 ms: the client gives up READ_TIMEOUT_MARGIN_MS (2 s) later. The session
  // then turns the server's own timeout off, as a frozen server would never enforce it.
  const d = connect(url, { max: 1, statementTimeoutMs: 100 });
  opened.push(d);
  const pid = async () => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(d.db)).rows[0]!.pid;
  const first = await pid();
  await sql`SET statement_timeout = 0`.execute(d.db);
  const stuck = await sql`SELECT pg_sleep(${6}::float8)`.execute(d.db).then(() => null, (e: unknown) => e);
  assert.match(String((stuck as Error | null)?.message), /Query read timeout/);
  const t0 = Date.now();
  assert.notEqual(await pid(), first, 'a new connection');
  assert.ok(Date.now() - t0 < 2_000, 'without waiting behind the sleeping statement');
});
