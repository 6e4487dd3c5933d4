// `hostcloud migrate` against DATABASE_URL: applies migrations, starts empty (the demo data only
// with SEED_DEMO=true, seeded once), and is idempotent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { buildApp } from '../../src/http/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { servicesFor } from '../../src/runtime.ts';

const run = promisify(execFile);
const adminUrl = process.env.HC_TEST_ADMIN_URL!;
const name = `${process.env.HC_TEST_PREFIX}_cli_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
after(() => dropDatabase(adminUrl, name));

test('hostcloud migrate on DATABASE_URL creates the schema and no demo data; SEED_DEMO=true seeds it', async () => {
  await ensureDatabase(adminUrl, name);
  const { SEED_DEMO: _unset, ...inherited } = process.env;
  const env = { ...inherited, DATABASE_URL: url };
  const first = await run(process.execPath, ['bin/hostcloud.js', 'migrate'], { env });
  assert.match(first.stdout, /^migrations applied\n$/);
  const db = connect(url, { max: 1 });
  try {
    const count = async (table: 'plans' | 'locations' | 'nodes' | 'ip_pools' | 'operating_systems') =>
      Number((await db.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    for (const table of ['plans', 'locations', 'nodes', 'ip_pools', 'operating_systems'] as const) assert.equal(await count(table), 0, `${table}: a production database starts empty`);
    const seller = await db.db.selectFrom('invoice_settings').select('company_name').executeTakeFirstOrThrow();
    assert.equal(seller.company_name, '', 'no demo seller');
    const seeded = await run(process.execPath, ['bin/hostcloud.js', 'migrate'], { env: { ...env, SEED_DEMO: 'true' } });
    assert.match(seeded.stdout, /demo data seeded/);
    // Seeding once per database, however many processes start, is test/v2/seed.test.ts's.
    assert.equal(await count('plans'), 6);
    assert.equal(await count('nodes'), 9);
    const migrations = await db.db.selectFrom('kysely_migration' as never).selectAll().execute();
    assert.ok(migrations.length >= 1);
  } finally {
    await db.close();
  }
});

test('a bad setting stops the command with a clear message', async () => {
  await assert.rejects(run(process.execPath, ['bin/hostcloud.js', 'migrate'], { env: { ...process.env, PORT: 'eighty' } }), (e: { stderr: string; code: number }) => {
    assert.equal(e.code, 1);
    assert.match(e.stderr, /PORT must be a whole number/);
    assert.doesNotMatch(e.stderr, /at .*\.ts/, 'no stack trace for a configuration error');
    return true;
  });
});

test('/readyz answers 503 SERVICE_UNAVAILABLE when the database is unreachable; /healthz stays 200', async () => {
  const broken = connect('postgres://postgres@127.0.0.1:1/none', { max: 1 });
  const rateLimiter = createRateLimiter({ max: 100, windowS: 60 });
  const app = await buildApp({ config: { ...loadConfig({}), publicUrl: 'http://api.test' }, db: broken.db, rateLimiter, adminToken: 'x', logger: createLogger('silent'), services: servicesFor(loadConfig({}), broken.db) });
  try {
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(JSON.parse(ready.body).error.code, 'SERVICE_UNAVAILABLE');
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    const customer = await app.inject({ method: 'GET', url: '/v2/account', headers: { authorization: `Bearer hc_live_${'a'.repeat(40)}` } });
    assert.equal(customer.statusCode, 503, 'a database outage is retryable, not an internal error');
    assert.equal(JSON.parse(customer.body).error.code, 'SERVICE_UNAVAILABLE');
  } finally {
    await app.close();
    await broken.close();
  }
});

test('a database that accepts connections but never answers: /readyz says 503 within seconds', async () => {
  const net = await import('node:net');
  const sockets: import('node:net').Socket[] = [];
  const blackHole = net.createServer((s) => sockets.push(s));
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  const port = (blackHole.address() as { port: number }).port;
  const hung = connect(`postgres://postgres@127.0.0.1:${port}/none`, { max: 1, connectTimeoutMs: 1_000 });
  const rateLimiter = createRateLimiter({ max: 100, windowS: 60 });
  const app = await buildApp({ config: { ...loadConfig({}), publicUrl: 'http://api.test' }, db: hung.db, rateLimiter, adminToken: 'x', logger: createLogger('silent'), services: servicesFor(loadConfig({}), hung.db) });
  try {
    const started = Date.now();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    // Its own deadline is READY_TIMEOUT_MS (2 s); the margin is for a loaded CI machine, not for the pool.
    assert.ok(Date.now() - started < 6_000, `took ${Date.now() - started} ms`);
    const customer = await app.inject({ method: 'GET', url: '/v2/account', headers: { authorization: `Bearer hc_live_${'b'.repeat(40)}` } });
    assert.equal(customer.statusCode, 503, 'the pool gives up after its connect timeout');
    assert.equal(JSON.parse(customer.body).error.code, 'SERVICE_UNAVAILABLE');
  } finally {
    await app.close();
    for (const s of sockets) s.destroy();
    blackHole.close();
    await hung.close().catch(() => {});
  }
});
