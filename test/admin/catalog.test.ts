// Admin catalog management: the same routes for eleven tables. One table-driven suite checks each
// table's create/get/list/patch and validation; specific tests cover the catalog rules (the tier
// ladder, the price ceiling, discount decimals) and the v2 side. Unit prices: unit-prices.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { createCatalogRow, patchCatalogRow } from '../../src/core/catalog/service.ts';
import { ApiError } from '../../src/core/errors.ts';
import { connect } from '../../src/db/connection.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();

type Res = Awaited<ReturnType<typeof call>>;
type Body = Record<string, unknown>;

function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  const { error } = json(res);
  assert.equal(error.code, 'VALIDATION_FAILED');
  assert.match(error.doc_url, /#VALIDATION_FAILED$/);
  assert.deepEqual((error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
}

function assertNotFound(res: Res) {
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
}

interface Case {
  path: string;
  /** Rows in the demo catalog. */
  seeded: number;
  create: Body;
  /** What the created row shows (defaults and money formatting). */
  shown: Body;
  required: string[];
  patch: Body;
  patched: Body;
  /** One wrong-typed value and one out-of-range value, each for the named field. */
  wrongType: Body;
  outOfRange: Body;
  /** Key of a row that does not exist. */
  missing: string;
  /** The key the row is addressed by (the id, or the TLD). */
  keyOf?: (row: Body) => string;
  /** Runs before the first POST (e.g. to make room in the tier ladder). */
  setup?: () => Promise<void>;
}

const CASES: Case[] = [
  {
    path: 'plans', seeded: 6,
    create: { name: 'Test Plan', cpu_cores: 3, ram_mb: 3072, storage_gb: 60, bandwidth_gb: 0, price: '5' },
    shown: { name: 'Test Plan', cpu_cores: 3, ram_mb: 3072, storage_gb: 60, bandwidth_gb: 0, price: '5.00', available: true },
    required: ['name', 'cpu_cores', 'ram_mb', 'storage_gb', 'bandwidth_gb', 'price'],
    patch: { price: '7.5', available: false }, patched: { price: '7.50', available: false },
    wrongType: { cpu_cores: '3' }, outOfRange: { ram_mb: -1 }, missing: '999999',
  },
  {
    path: 'locations', seeded: 4,
    create: { name: 'Test City', code: 'tst1', country: 'FR', provider: 'partner' },
    shown: { name: 'Test City', code: 'tst1', country: 'FR', provider: 'partner', available: true },
    required: ['name', 'code', 'country', 'provider'],
    patch: { name: 'Renamed City', available: false }, patched: { name: 'Renamed City', available: false },
    wrongType: { available: 'yes' }, outOfRange: { code: 'X' }, missing: '999999',
  },
  {
    path: 'operating-systems', seeded: 5,
    create: { family: 'Fedora', version: '40', slug: 'fedora-40' },
    shown: { family: 'Fedora', version: '40', slug: 'fedora-40', available: true, image: null },
    required: ['family', 'version', 'slug'],
    patch: { version: '41', slug: 'fedora-41' }, patched: { version: '41', slug: 'fedora-41' },
    wrongType: { version: 40 }, outOfRange: { slug: 'Fedora 40' }, missing: '999999',
  },
  {
    path: 'tld-prices', seeded: 12,
    create: { tld: '.test', register: '5', renewal: '6.5', transfer: '0' },
    shown: { tld: '.test', register: '5.00', renewal: '6.50', transfer: '0.00', supports_whois_privacy: true, years_min: 1, years_max: 10, requires_contact: false },
    required: ['tld', 'register', 'renewal', 'transfer'],
    patch: { renewal: '7.25', years_max: 5 }, patched: { renewal: '7.25', years_max: 5 },
    wrongType: { register: 5 }, outOfRange: { years_max: 11 }, missing: 'nosuchtld',
    keyOf: (row) => String(row.tld),
  },
  {
    path: 'hosting-packages', seeded: 4,
    create: { name: 'Web Test', disk_quota_mb: 1024, max_domains: 2, monthly_price: '1.5', yearly_price: '15' },
    shown: { name: 'Web Test', disk_quota_mb: 1024, max_domains: 2, monthly_price: '1.50', yearly_price: '15.00', active: true },
    required: ['name', 'disk_quota_mb', 'max_domains', 'monthly_price', 'yearly_price'],
    patch: { yearly_price: '12.00', active: false }, patched: { yearly_price: '12.00', active: false },
    wrongType: { max_domains: 2.5 }, outOfRange: { disk_quota_mb: 0 }, missing: '999999',
  },
  {
    path: 'departments', seeded: 4,
    create: { name: 'Test Desk', email: 'desk@hostcloud.example' },
    shown: { name: 'Test Desk', email: 'desk@hostcloud.example', active: true },
    required: ['name', 'email'],
    patch: { email: 'desk2@hostcloud.example' }, patched: { email: 'desk2@hostcloud.example' },
    wrongType: { active: 1 }, outOfRange: { email: 'not-an-email' }, missing: '999999',
  },
  {
    path: 'reseller-tiers', seeded: 4,
    // The seeded top tier (100+) is open-ended and every tier must stay clear of the others: close
    // it at 499 so that 500–999 is free. The ladder tests below start from this state.
    setup: async () => {
      const top = json(await adminCall(t, 'GET', '/admin/v1/reseller-tiers?per_page=100')).data.at(-1);
      assert.deepEqual([top.min_servers, top.max_servers], [100, null]);
      const res = await adminCall(t, 'PATCH', `/admin/v1/reseller-tiers/${top.id}`, { max_servers: 499 });
      assert.equal(res.statusCode, 200, res.body);
    },
    create: { min_servers: 500, max_servers: 999, discount_percentage: 20 },
    shown: { min_servers: 500, max_servers: 999, discount_percentage: 20 },
    required: ['min_servers', 'discount_percentage'],
    patch: { discount_percentage: 33.33 }, patched: { discount_percentage: 33.33 },
    wrongType: { discount_percentage: '20' }, outOfRange: { discount_percentage: 100.5 }, missing: '999999',
  },
  {
    path: 'email-packages', seeded: 2,
    create: { name: 'Mail Test', disk_quota_mb: 1024, max_accounts: 3, monthly_price: '2.5' },
    shown: { name: 'Mail Test', disk_quota_mb: 1024, max_accounts: 3, monthly_price: '2.50' },
    required: ['name', 'disk_quota_mb', 'max_accounts', 'monthly_price'],
    patch: { max_accounts: 10, monthly_price: '3' }, patched: { max_accounts: 10, monthly_price: '3.00' },
    wrongType: { max_accounts: '3' }, outOfRange: { disk_quota_mb: 0 }, missing: '999999',
  },
  {
    path: 'colocation-packages', seeded: 2,
    create: { name: 'Half Rack', type: 'half_rack', monthly_price: '499' },
    shown: { name: 'Half Rack', type: 'half_rack', monthly_price: '499.00' },
    required: ['name', 'type', 'monthly_price'],
    patch: { name: 'Half Rack Plus', monthly_price: '549.99' }, patched: { name: 'Half Rack Plus', monthly_price: '549.99' },
    wrongType: { type: 2 }, outOfRange: { type: 'half rack!' }, missing: '999999',
  },
  {
    path: 'dedicated-packages', seeded: 2,
    create: { name: 'Dedicated Xeon', cpu_cores: 16, ram_gb: 128, storage_gb: 2000, monthly_price: '149' },
    shown: { name: 'Dedicated Xeon', cpu_cores: 16, ram_gb: 128, storage_gb: 2000, monthly_price: '149.00' },
    required: ['name', 'cpu_cores', 'ram_gb', 'storage_gb', 'monthly_price'],
    patch: { ram_gb: 256 }, patched: { ram_gb: 256 },
    wrongType: { cpu_cores: 'many' }, outOfRange: { storage_gb: 0 }, missing: '999999',
  },
  {
    path: 'ip-subnet-packages', seeded: 3,
    create: { name: 'IPv4 /27', subnet_size: 27, monthly_price: '55' },
    shown: { name: 'IPv4 /27', subnet_size: 27, monthly_price: '55.00' },
    required: ['name', 'subnet_size', 'monthly_price'],
    patch: { name: 'IPv4 /26', subnet_size: 26 }, patched: { name: 'IPv4 /26', subnet_size: 26 },
    wrongType: { subnet_size: '27' }, outOfRange: { subnet_size: 7 }, missing: '999999',
  },
];

for (const c of CASES) {
  describe(`/admin/v1/${c.path}`, () => {
    const base = `/admin/v1/${c.path}`;
    const keyOf = c.keyOf ?? ((row: Body) => String(row.id));
    let created: Body;

    test('POST → 201 with the row (money as strings, defaults filled)', async () => {
      await c.setup?.();
      const res = await adminCall(t, 'POST', base, c.create);
      assert.equal(res.statusCode, 201, res.body);
      const body = json(res);
      assert.equal(body.meta.version, '2.0.0');
      created = body.data;
      const { id, ...rest } = created;
      if (!c.keyOf) assert.ok(Number.isInteger(id) && (id as number) > 0, 'Number.isInteger(id) && (id as number) > 0');
      assert.deepEqual(rest, c.shown);
      // No *_cents column leaks next to the money strings.
      assert.equal(Object.keys(created).some((k) => k.endsWith('_cents')), false);
    });

    test('GET one → 200 the same row', async () => {
      const res = await adminCall(t, 'GET', `${base}/${encodeURIComponent(keyOf(created))}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res).data, created);
    });

    test('GET list → paged, includes the new row', async () => {
      const total = c.seeded + 1;
      const all = json(await adminCall(t, 'GET', `${base}?per_page=100`));
      assert.equal(all.data.length, total);
      assert.deepEqual(all.meta.pagination, { page: 1, per_page: 100, total, total_pages: 1 });
      assert.deepEqual(all.data.find((r: Body) => keyOf(r) === keyOf(created)), created);
      const p2 = json(await adminCall(t, 'GET', `${base}?per_page=2&page=2`));
      assert.equal(p2.data.length, Math.min(2, total - 2));
      assert.deepEqual(p2.data, all.data.slice(2, 4));
      assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 2, total, total_pages: Math.ceil(total / 2) });
      const past = json(await adminCall(t, 'GET', `${base}?page=99`));
      assert.deepEqual(past.data, []);
      assert.equal(past.meta.pagination.total, total);
      const dflt = json(await adminCall(t, 'GET', base));
      assert.equal(dflt.meta.pagination.per_page, 25);
      assertInvalid(await adminCall(t, 'GET', `${base}?per_page=0`), ['per_page']);
      assertInvalid(await adminCall(t, 'GET', `${base}?per_page=101`), ['per_page']);
      assertInvalid(await adminCall(t, 'GET', `${base}?page=abc`), ['page']);
    });

    test('PATCH → 200 the changed row; other fields kept', async () => {
      const res = await adminCall(t, 'PATCH', `${base}/${encodeURIComponent(keyOf(created))}`, c.patch);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res).data, { ...created, ...c.patched });
      const again = json(await adminCall(t, 'GET', `${base}/${encodeURIComponent(keyOf(created))}`)).data;
      assert.deepEqual(again, { ...created, ...c.patched });
    });

    test('GET, PATCH of an unknown row → 404', async () => {
      assertNotFound(await adminCall(t, 'GET', `${base}/${c.missing}`));
      assertNotFound(await adminCall(t, 'PATCH', `${base}/${c.missing}`, c.patch));
    });

    test('POST validation: missing required fields, wrong type, out of range, unknown field', async () => {
      assertInvalid(await adminCall(t, 'POST', base, {}), c.required);
      const field = c.required[0]!;
      const { [field]: _, ...withoutOne } = c.create;
      assertInvalid(await adminCall(t, 'POST', base, withoutOne), [field]);
      assertInvalid(await adminCall(t, 'POST', base, { ...c.create, ...c.wrongType }), Object.keys(c.wrongType));
      assertInvalid(await adminCall(t, 'POST', base, { ...c.create, ...c.outOfRange }), Object.keys(c.outOfRange));
      assertInvalid(await adminCall(t, 'POST', base, { ...c.create, id: 12345 }), ['id']);
      assertInvalid(await adminCall(t, 'POST', base, { ...c.create, colour: 'blue' }), ['colour']);
      assertInvalid(await adminCall(t, 'POST', base, { ...c.create, ...c.wrongType, colour: 'blue' }), [...Object.keys(c.wrongType), 'colour']);
      // Nothing was added by the refused requests.
      assert.equal(json(await adminCall(t, 'GET', base)).meta.pagination.total, c.seeded + 1);
    });

    test('PATCH validation: empty body, wrong type, out of range, unknown field, bad id', async () => {
      const url = `${base}/${encodeURIComponent(keyOf(created))}`;
      assertInvalid(await adminCall(t, 'PATCH', url, {}), ['body']);
      assertInvalid(await adminCall(t, 'PATCH', url, c.wrongType), Object.keys(c.wrongType));
      assertInvalid(await adminCall(t, 'PATCH', url, c.outOfRange), Object.keys(c.outOfRange));
      assertInvalid(await adminCall(t, 'PATCH', url, { colour: 'blue' }), ['colour']);
      if (!c.keyOf) {
        assertInvalid(await adminCall(t, 'PATCH', `${base}/abc`, c.patch), ['id']);
        assertInvalid(await adminCall(t, 'GET', `${base}/0`), ['id']);
      }
      // Unchanged.
      assert.deepEqual(json(await adminCall(t, 'GET', url)).data, { ...created, ...c.patched });
    });
  });
}

// ---- money -----------------------------------------------------------------------------------

test('money fields take decimal strings only', async () => {
  const plan = { name: 'Money', cpu_cores: 1, ram_mb: 512, storage_gb: 10, bandwidth_gb: 100 };
  for (const price of ['-5', '1.234', 'abc', 5, '1e3', '', null]) {
    assertInvalid(await adminCall(t, 'POST', '/admin/v1/plans', { ...plan, price }), ['price']);
  }
  const res = await adminCall(t, 'POST', '/admin/v1/plans', { ...plan, price: '0' });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(json(res).data.price, '0.00');
});

test('prices above the largest ledger movement (10000000.00) → 422 naming the field; the maximum itself is accepted', async () => {
  const plan = { name: 'Ceiling', cpu_cores: 1, ram_mb: 512, storage_gb: 10, bandwidth_gb: 100 };
  // The wire format admits up to 99999999.99; the catalog may not price what the ledger cannot charge.
  for (const price of ['10000000.01', '10000001', '99999999.99']) {
    assertInvalid(await adminCall(t, 'POST', '/admin/v1/plans', { ...plan, price }), ['price']);
  }
  const res = await adminCall(t, 'POST', '/admin/v1/plans', { ...plan, price: '10000000.00' });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(json(res).data.price, '10000000.00');
  const url = `/admin/v1/plans/${json(res).data.id}`;
  const refused = await adminCall(t, 'PATCH', url, { price: '10000000.01' });
  assertInvalid(refused, ['price']);
  assert.match(json(refused).error.errors[0].message, /10000000\.00/);
  assert.equal(json(await adminCall(t, 'GET', url)).data.price, '10000000.00');
  // Every money field of every family, several at once.
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: '.ceil', register: '10000000.01', renewal: '99999999.99', transfer: '1' }), ['register', 'renewal']);
  assertNotFound(await adminCall(t, 'GET', '/admin/v1/tld-prices/ceil'));
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/hosting-packages/1', { yearly_price: '20000000' }), ['yearly_price']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/email-packages', { name: 'M', disk_quota_mb: 1, max_accounts: 1, monthly_price: '10000000.01' }), ['monthly_price']);
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/colocation-packages/1', { monthly_price: '10000000.01' }), ['monthly_price']);
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/dedicated-packages/1', { monthly_price: '10000000.01' }), ['monthly_price']);
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/ip-subnet-packages/1', { monthly_price: '10000000.01' }), ['monthly_price']);
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/colocation-packages/1')).data.monthly_price, '49.00');
});

// ---- database rules come back as 422 naming the field -----------------------------------------

test('duplicate location code → 422 naming code (create and patch)', async () => {
  const body = { name: 'Dup', code: 'dup1', country: 'DE', provider: 'primary' };
  assert.equal((await adminCall(t, 'POST', '/admin/v1/locations', body)).statusCode, 201);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/locations', body), ['code']);
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/locations/1', { code: 'dup1' }), ['code']);
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/locations/1')).data.code, 'fra1');
});

test('duplicate OS slug or family+version → 422', async () => {
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/operating-systems', { family: 'Other', version: '1', slug: 'debian-12' }), ['slug']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/operating-systems', { family: 'Debian', version: '12', slug: 'debian-12b' }), ['version']);
});

test('TLDs: duplicate → 422; "COM", ".com" and "com" all address .com', async () => {
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: '.com', register: '1', renewal: '1', transfer: '1' }), ['tld']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: 'com', register: '1', renewal: '1', transfer: '1' }), ['tld']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: 'COM', register: '1', renewal: '1', transfer: '1' }), ['tld']);
  const byKey = await Promise.all(['com', '.com', 'COM', '.COM'].map((k) => adminCall(t, 'GET', `/admin/v1/tld-prices/${k}`)));
  for (const r of byKey) {
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(json(r).data.tld, '.com');
    assert.equal(json(r).data.register, '11.99');
  }
  const patched = await adminCall(t, 'PATCH', '/admin/v1/tld-prices/COM', { transfer: '10.00' });
  assert.equal(patched.statusCode, 200, patched.body);
  assert.equal(json(patched).data.tld, '.com');
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/tld-prices/.com')).data.transfer, '10.00');
  // A new TLD given without a dot, in capitals, is stored as ".name".
  const created = await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: 'SHOP', register: '2', renewal: '2', transfer: '2' });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(json(created).data.tld, '.shop');
  assert.equal((await adminCall(t, 'GET', '/admin/v1/tld-prices/shop')).statusCode, 200);
  // Renaming through PATCH is normalised too, and a clash is 422 not 500.
  const renamed = await adminCall(t, 'PATCH', '/admin/v1/tld-prices/shop', { tld: 'Store' });
  assert.equal(renamed.statusCode, 200, renamed.body);
  assert.equal(json(renamed).data.tld, '.store');
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/tld-prices/store', { tld: 'com' }), ['tld']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: 'bad tld', register: '1', renewal: '1', transfer: '1' }), ['tld']);
});

test('TLD years_max below years_min → 422 naming years_max', async () => {
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: '.yy', register: '1', renewal: '1', transfer: '1', years_min: 5, years_max: 2 }), ['years_max']);
  assertInvalid(await adminCall(t, 'PATCH', '/admin/v1/tld-prices/uk', { years_min: 6 }), ['years_max']);
  assertNotFound(await adminCall(t, 'GET', '/admin/v1/tld-prices/yy'));
});

// ---- the reseller tier ladder ----------------------------------------------------------------

describe('reseller tiers form a ladder: no overlaps, one open-ended top tier', () => {
  const url = '/admin/v1/reseller-tiers';
  const ladder = async (): Promise<Body[]> => json(await adminCall(t, 'GET', `${url}?per_page=100`)).data;
  const ranges = (rows: Body[]) => rows.map((r) => [r.min_servers, r.max_servers]);
  const tier = async (min: number) => (await ladder()).find((r) => r.min_servers === min)!;
  function assertOverlap(res: Res) {
    assertInvalid(res, ['min_servers']);
    assert.match(json(res).error.errors[0].message, /overlaps an existing tier \(tiers form a ladder; only the top tier is open-ended\)/);
  }

  test('the starting ladder (the table suite closed the seeded top tier at 499 and added 500–999)', async () => {
    const rows = await ladder();
    assert.deepEqual(ranges(rows), [[0, 9], [10, 49], [50, 99], [100, 499], [500, 999]]);
  });

  test('max below min, duplicate min → 422 naming the field; nothing changes', async () => {
    const before = await ladder();
    assertInvalid(await adminCall(t, 'POST', url, { min_servers: 1000, max_servers: 10, discount_percentage: 1 }), ['max_servers']);
    assertInvalid(await adminCall(t, 'POST', url, { min_servers: 10, max_servers: 20, discount_percentage: 1 }), ['min_servers']);
    const first = before[0]!;
    assertInvalid(await adminCall(t, 'PATCH', `${url}/${first.id}`, { max_servers: -1 }), ['max_servers']);
    assertInvalid(await adminCall(t, 'PATCH', `${url}/${first.id}`, { min_servers: 10, max_servers: 10 }), ['min_servers']);
    assertInvalid(await adminCall(t, 'PATCH', `${url}/${first.id}`, { min_servers: 20 }), ['max_servers']);
    assert.deepEqual(await ladder(), before);
  });

  test('a tier overlapping another → 422 naming min_servers; nothing added', async () => {
    const before = await ladder();
    const overlapping: [number, number | null][] = [[5, 7], [40, 60], [990, 2000], [999, null], [1, null], [1, 1_000_000]];
    for (const [min, max] of overlapping) {
      assertOverlap(await adminCall(t, 'POST', url, { min_servers: min, max_servers: max, discount_percentage: 1 }));
    }
    assert.deepEqual(await ladder(), before);
  });

  test('many overlapping tier writes at once (adds, then widening patches): the first wins, every write that overlaps it is refused as overlapping, never "busy"', async () => {
    // Left to the exclusion constraint alone, two overlapping inserts could each find the other's
    // uncommitted row and wait on it, and PostgreSQL failed one as a deadlock: 503 "The service is
    // busy" where the answer is 422 (as IP pools once did, test/admin/provider.test.ts). A lock on
    // the table holds 30 writes (the rule called directly, on a pool of 30 connections) until every
    // one waits, then lets them all go at once.
    const db = t.database.db;
    const wide = connect(t.databaseUrl, { max: 30 });
    const isOverlap = (e: unknown) => e instanceof ApiError && e.code === 'VALIDATION_FAILED' && /overlaps/.test(e.errors[0]?.message ?? '');
    const atOnce = async (what: string, writes: (() => Promise<unknown>)[], refused: number) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => { release = resolve; });
      let held!: () => void;
      const isHeld = new Promise<void>((resolve) => { held = resolve; });
      const holder = db.transaction().execute(async (trx) => {
        await sql`LOCK TABLE reseller_tiers IN SHARE MODE`.execute(trx);
        held();
        await released;
      });
      await isHeld;
      const settled = Promise.allSettled(writes.map((w) => w()));
      const deadline = Date.now() + 60_000;
      const waiting = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)).rows[0]!.n;
      while (await waiting() < writes.length) {
        assert.ok(Date.now() < deadline, `${what}: the writes never all waited`);
        await new Promise((r) => setTimeout(r, 20));
      }
      release();
      await holder;
      const refusals = (await settled).flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      assert.deepEqual(refusals.filter((e) => !isOverlap(e)).map(String), [], `${what}: only overlaps refused`);
      assert.equal(refusals.length, refused, `${what}: ${writes.length - refused} succeeded`);
    };
    try {
      await atOnce('adds', Array.from({ length: 30 }, (_, i) => () =>
        createCatalogRow(wide.db, 'reseller_tiers', { min_servers: 10_000 + i * 10, max_servers: 20_000, discount_percentage: 1 })), 29);
      // Two far tiers, each widened toward the other by 15 patches at once: the first to commit
      // decides which tier grows (its row's other patches follow it); the other's 15 overlap.
      const low = await createCatalogRow(db, 'reseller_tiers', { min_servers: 30_000, max_servers: 30_009, discount_percentage: 1 });
      const high = await createCatalogRow(db, 'reseller_tiers', { min_servers: 40_000, max_servers: 40_009, discount_percentage: 1 });
      await atOnce('patches', Array.from({ length: 30 }, (_, i) => () => (i % 2
        ? patchCatalogRow(wide.db, 'reseller_tiers', low.id, { max_servers: 39_000 + i })
        : patchCatalogRow(wide.db, 'reseller_tiers', high.id, { min_servers: 31_000 - i }))), 15);
    } finally {
      await wide.close();
      // Gone again: the tests after this one build on the ladder as it was.
      await db.deleteFrom('reseller_tiers').where('min_servers', '>=', 10_000).execute();
    }
  });

  test('an open-ended top tier above the ladder → 201; a second open-ended tier → 422', async () => {
    const open = await adminCall(t, 'POST', url, { min_servers: 2000, max_servers: null, discount_percentage: 0.07 });
    assert.equal(open.statusCode, 201, open.body);
    assert.equal(json(open).data.max_servers, null);
    assert.equal(json(open).data.discount_percentage, 0.07);
    // Above it, below it (it would reach into the open tier), and omitting max_servers (null by default).
    assertOverlap(await adminCall(t, 'POST', url, { min_servers: 3000, max_servers: null, discount_percentage: 1 }));
    assertOverlap(await adminCall(t, 'POST', url, { min_servers: 1000, max_servers: null, discount_percentage: 1 }));
    assertOverlap(await adminCall(t, 'POST', url, { min_servers: 5000, discount_percentage: 1 }));
    assert.equal((await ladder()).filter((r) => r.max_servers === null).length, 1);
  });

  test('a tier that fits a gap of the ladder → 201, listed in min_servers order', async () => {
    const res = await adminCall(t, 'POST', url, { min_servers: 1000, max_servers: 1999, discount_percentage: 25 });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(json(res).data, { id: json(res).data.id, min_servers: 1000, max_servers: 1999, discount_percentage: 25 });
    assert.deepEqual(ranges(await ladder()), [[0, 9], [10, 49], [50, 99], [100, 499], [500, 999], [1000, 1999], [2000, null]]);
  });

  test('a PATCH that would overlap → 422 naming min_servers; the row is unchanged', async () => {
    const before = await ladder();
    const mid = await tier(1000);
    assertOverlap(await adminCall(t, 'PATCH', `${url}/${mid.id}`, { max_servers: 2000 }));
    assertOverlap(await adminCall(t, 'PATCH', `${url}/${mid.id}`, { min_servers: 999 }));
    assertOverlap(await adminCall(t, 'PATCH', `${url}/${mid.id}`, { max_servers: null }));
    assertOverlap(await adminCall(t, 'PATCH', `${url}/${before[0]!.id}`, { max_servers: 10 }));
    assert.deepEqual(await ladder(), before);
    // Moving two tiers apart one after the other keeps the ladder clear at each step.
    const top = await tier(2000);
    assert.equal((await adminCall(t, 'PATCH', `${url}/${top.id}`, { min_servers: 2500 })).statusCode, 200);
    const grown = await adminCall(t, 'PATCH', `${url}/${mid.id}`, { max_servers: 2499 });
    assert.equal(grown.statusCode, 200, grown.body);
    assert.deepEqual(ranges(await ladder()).slice(-2), [[1000, 2499], [2500, null]]);
  });

  test('discount_percentage: at most 2 decimals, judged exactly (no float error either way)', async () => {
    const mid = await tier(1000);
    for (const bad of [1.005, 0.001, 33.333, 1e-7, 1e-9, 99.999]) {
      assertInvalid(await adminCall(t, 'PATCH', `${url}/${mid.id}`, { discount_percentage: bad }), ['discount_percentage']);
    }
    // The decimal rule runs before the database: a new tier far from the ladder is refused for it alone.
    assertInvalid(await adminCall(t, 'POST', url, { min_servers: 2100, max_servers: 2200, discount_percentage: 1.005 }), ['discount_percentage']);
    assertInvalid(await adminCall(t, 'POST', url, { min_servers: 6000, discount_percentage: -1 }), ['discount_percentage']);
    for (const good of [0.07, 0.29, 33.33, 1.1, 99.99, 100, 0, 20.5]) {
      const res = await adminCall(t, 'PATCH', `${url}/${mid.id}`, { discount_percentage: good });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).data.discount_percentage, good);
    }
    const row = await t.database.db.selectFrom('reseller_tiers').select('discount_percentage').where('id', '=', mid.id as number).executeTakeFirstOrThrow();
    assert.equal(row.discount_percentage, '20.50');
  });
});

// ---- the customer side sees operator changes ---------------------------------------------------

test('a created plan appears in GET /v2/plans; an unavailable one is marked so', async () => {
  const c = await createCustomer(t);
  const res = await adminCall(t, 'POST', '/admin/v1/plans', { name: 'Visible Plan', cpu_cores: 6, ram_mb: 12288, storage_gb: 200, bandwidth_gb: 5000, price: '42.5' });
  assert.equal(res.statusCode, 201, res.body);
  const id = json(res).data.id;
  const list = json(await call(t.app, 'GET', '/v2/plans', { key: c.key, query: { per_page: '100' } }));
  assert.deepEqual(list.data.find((p: Body) => p.id === id), {
    id, name: 'Visible Plan', specs: { cpu_cores: 6, ram_mb: 12288, storage_gb: 200, bandwidth_gb: 5000 },
    price: { amount: '42.50', currency: 'USD' }, available: true,
  });
  await adminCall(t, 'PATCH', `/admin/v1/plans/${id}`, { available: false });
  const one = json(await call(t.app, 'GET', `/v2/plans/${id}`, { key: c.key }));
  assert.equal(one.data.available, false);
});

test('GET /v2/locations shows only available locations of the primary provider', async () => {
  const c = await createCustomer(t);
  const mk = async (code: string, provider: string, available: boolean) => {
    const r = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Loc ${code}`, code, country: 'SE', provider, available });
    assert.equal(r.statusCode, 201, r.body);
    return json(r).data.id as number;
  };
  const shown = await mk('sto1', 'primary', true);
  const hidden = await mk('sto2', 'partner', true);
  const off = await mk('sto3', 'primary', false);
  const codes = async () => json(await call(t.app, 'GET', '/v2/locations', { key: c.key, query: { per_page: '100' } })).data.map((l: Body) => l.code);
  let list = await codes();
  // (Messages on assert.ok: without one, a failure under tsx can hang while Node reads the source.)
  assert.ok(list.includes('sto1'), 'sto1: available, primary');
  assert.ok(!list.includes('sto2'), 'sto2: partner');
  assert.ok(!list.includes('sto3'), 'sto3: unavailable');
  assert.ok(!list.includes('sin1'), 'sin1: partner (seeded)');
  // Flipping the flags moves them in and out.
  await adminCall(t, 'PATCH', `/admin/v1/locations/${shown}`, { available: false });
  await adminCall(t, 'PATCH', `/admin/v1/locations/${hidden}`, { provider: 'primary' });
  await adminCall(t, 'PATCH', `/admin/v1/locations/${off}`, { available: true });
  list = await codes();
  assert.deepEqual(['sto1', 'sto2', 'sto3'].filter((x) => list.includes(x)), ['sto2', 'sto3']);
});

test('operating systems, hosting packages and departments: the v2 lists follow the flags', async () => {
  const c = await createCustomer(t);
  const os = json(await adminCall(t, 'POST', '/admin/v1/operating-systems', { family: 'openSUSE', version: '15.6', slug: 'opensuse-15.6', available: false })).data;
  let v2os = json(await call(t.app, 'GET', '/v2/operating-systems', { key: c.key, query: { per_page: '100' } })).data;
  assert.equal(v2os.some((o: Body) => o.id === os.id), false);
  await adminCall(t, 'PATCH', `/admin/v1/operating-systems/${os.id}`, { available: true });
  v2os = json(await call(t.app, 'GET', '/v2/operating-systems', { key: c.key, query: { per_page: '100' } })).data;
  assert.deepEqual(v2os.find((o: Body) => o.id === os.id), { id: os.id, name: 'openSUSE 15.6', family: 'openSUSE', version: '15.6', slug: 'opensuse-15.6', available: true });

  const pkg = json(await adminCall(t, 'POST', '/admin/v1/hosting-packages', { name: 'Web Pro', disk_quota_mb: 4096, max_domains: 3, monthly_price: '3', yearly_price: '30' })).data;
  const v2pkg = json(await call(t.app, 'GET', '/v2/web-hosting-packages', { key: c.key, query: { per_page: '100' } })).data;
  assert.deepEqual(v2pkg.find((p: Body) => p.id === pkg.id)?.price, { monthly: { amount: '3.00', currency: 'USD' }, yearly: { amount: '30.00', currency: 'USD' } });

  const dep = json(await adminCall(t, 'POST', '/admin/v1/departments', { name: 'Night Shift', email: 'night@hostcloud.example' })).data;
  let deps = json(await call(t.app, 'GET', '/v2/departments', { key: c.key })).data;
  assert.deepEqual(deps.find((d: Body) => d.id === dep.id), { id: dep.id, name: 'Night Shift' });
  await adminCall(t, 'PATCH', `/admin/v1/departments/${dep.id}`, { active: false });
  deps = json(await call(t.app, 'GET', '/v2/departments', { key: c.key })).data;
  assert.equal(deps.some((d: Body) => d.id === dep.id), false);
});
