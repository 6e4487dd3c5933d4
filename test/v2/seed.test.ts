// The demo catalog (the demo seed, src/db/seed.ts): what a fresh database holds, how v2 shows it,
// and that seeding runs only once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { checkCatalogValues } from '../../src/core/catalog/rules.ts';
import { seedDemoCatalog } from '../../src/db/seed.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;

const TABLES = [
  'locations', 'plans', 'operating_systems', 'tld_prices', 'hosting_packages', 'departments', 'reseller_tiers',
  'unit_prices', 'email_packages', 'colocation_packages', 'dedicated_packages', 'ip_subnet_packages',
] as const;

async function counts(on = db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const r = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(on);
    out[table] = Number(r.rows[0]!.n);
  }
  return out;
}

test('locations: at least 3, one not routed to the primary provider and absent from /v2/locations', async () => {
  const rows = await db.selectFrom('locations').selectAll().execute();
  assert.ok(rows.length >= 3, 'rows.length >= 3');
  const primary = rows.filter((l) => l.provider === 'primary' && l.available);
  assert.ok(primary.length >= 1, 'primary.length >= 1');
  const other = rows.filter((l) => l.provider !== 'primary');
  assert.ok(other.length >= 1, 'other.length >= 1');
  for (const l of rows) assert.match(l.country, /^[A-Z]{2}$/);

  const c = await createCustomer(t);
  const listed = json(await call(t.app, 'GET', '/v2/locations', { key: c.key })).data.map((l: { id: number }) => l.id);
  assert.deepEqual(listed.sort(), primary.map((l) => l.id).sort());
  for (const l of other) assert.ok(!listed.includes(l.id), '!listed.includes(l.id)');
});

test('plans: at least 5, one unavailable and shown as available:false', async () => {
  const rows = await db.selectFrom('plans').selectAll().execute();
  assert.ok(rows.length >= 5, 'rows.length >= 5');
  const unavailable = rows.filter((p) => !p.available);
  assert.ok(unavailable.length >= 1, 'unavailable.length >= 1');
  assert.ok(rows.filter((p) => p.available).length >= 4, 'rows.filter((p) => p.available).length >= 4');
  const c = await createCustomer(t);
  const plans = json(await call(t.app, 'GET', '/v2/plans', { key: c.key })).data;
  for (const u of unavailable) assert.equal(plans.find((p: { id: number }) => p.id === u.id)?.available, false);
});

test('OS versions, TLD prices, hosting packages, departments', async () => {
  assert.ok((await db.selectFrom('operating_systems').selectAll().where('available', '=', true).execute()).length >= 4);
  const tlds = await db.selectFrom('tld_prices').selectAll().execute();
  assert.ok(tlds.length >= 10, 'tlds.length >= 10');
  for (const needed of ['.com', '.net', '.org', '.io', '.de']) {
    const row = tlds.find((r) => r.tld === needed);
    assert.ok(row, `${needed} is priced`);
    assert.ok(row.register_cents > 0 && row.renewal_cents > 0, 'row.register_cents > 0 && row.renewal_cents > 0');
    assert.ok(row.years_min >= 1 && row.years_max >= row.years_min, 'row.years_min >= 1 && row.years_max >= row.years_min');
  }
  assert.ok((await db.selectFrom('hosting_packages').selectAll().where('active', '=', true).execute()).length >= 3);
  assert.ok((await db.selectFrom('departments').selectAll().where('active', '=', true).execute()).length >= 3);
});

test('reseller tiers: a ladder from 0 servers to an open-ended top tier, without gaps', async () => {
  const tiers = await db.selectFrom('reseller_tiers').selectAll().orderBy('min_servers').execute();
  assert.ok(tiers.length >= 2, 'tiers.length >= 2');
  assert.equal(tiers[0]!.min_servers, 0);
  assert.equal(tiers.at(-1)!.max_servers, null);
  for (let i = 1; i < tiers.length; i++) {
    assert.equal(tiers[i]!.min_servers, tiers[i - 1]!.max_servers! + 1, 'each tier starts where the previous one ends');
    assert.ok(Number(tiers[i]!.discount_percentage) >= Number(tiers[i - 1]!.discount_percentage), 'Number(tiers[i]!.discount_percentage) >= Number(tiers[i - 1]!.discount_percentage)');
  }
  assert.equal(tiers.filter((x) => x.max_servers === null).length, 1);
});

test('custom-mode unit prices and the v1 package families', async () => {
  const units = (await db.selectFrom('unit_prices').selectAll().execute()).map((u) => u.unit);
  for (const u of ['cpu_core', 'ram_gb', 'disk_gb']) assert.ok(units.includes(u), `unit price for ${u}`);
  const n = await counts();
  for (const table of ['email_packages', 'colocation_packages', 'dedicated_packages', 'ip_subnet_packages']) {
    assert.ok(n[table]! >= 1, `${table} is not empty`);
  }
});

test('every seeded row obeys the catalog rules the operator is held to (prices, discounts)', async () => {
  let prices = 0;
  for (const table of TABLES) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
    for (const row of rows.rows) {
      prices += Object.keys(row).filter((k) => k.endsWith('_cents')).length;
      assert.doesNotThrow(() => checkCatalogValues(row), `${table} ${JSON.stringify(row)}`);
    }
  }
  assert.ok(prices >= 30, 'the check saw the seeded prices');
});

test('seeding again is a no-op: returns false and adds no rows', async () => {
  const before = await counts();
  assert.equal(await seedDemoCatalog(db), false);
  // Two processes starting together: neither seeds twice.
  assert.deepEqual(await Promise.all([seedDemoCatalog(db), seedDemoCatalog(db)]), [false, false]);
  assert.deepEqual(await counts(), before);
});

test('a fresh database seeded by two processes at once gets exactly one catalog', async () => {
  const adminUrl = process.env.HC_TEST_ADMIN_URL!;
  const name = `${process.env.HC_TEST_PREFIX}_seed_${process.pid}`;
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const fresh = connect(u.toString());
  try {
    await migrateToLatest(fresh.db);
    const results = await Promise.all([seedDemoCatalog(fresh.db), seedDemoCatalog(fresh.db), seedDemoCatalog(fresh.db)]);
    assert.deepEqual(results.filter(Boolean).length, 1, 'exactly one seeding wins');
    assert.deepEqual(await counts(fresh.db), await counts(), 'the same catalog as every other new database');
  } finally {
    await fresh.close();
    await dropDatabase(adminUrl, name);
  }
});
