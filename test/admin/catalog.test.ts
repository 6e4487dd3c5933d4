// Admin catalog management: the same routes for seven tables. One table-driven suite checks each
// table's create/get/list/patch and validation; specific tests cover DB rules and the v2 side.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
    shown: { family: 'Fedora', version: '40', slug: 'fedora-40', available: true },
    required: ['family', 'version', 'slug'],
    patch: { version: '41', slug: 'fedora-41' }, patched: { version: '41', slug: 'fedora-41' },
    wrongType: { version: 40 }, outOfRange: { slug: 'Fedora 40' }, missing: '999999',
  },
  {
    path: 'tld-prices', seeded: 12,
    create: { tld: '.test', register: '5', renewal: '6.5', transfer: '0' },
    shown: { tld: '.test', register: '5.00', renewal: '6.50', transfer: '0.00', supports_whois_privacy: true, years_min: 1, years_max: 10 },
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
    create: { min_servers: 500, max_servers: 999, discount_percentage: 20 },
    shown: { min_servers: 500, max_servers: 999, discount_percentage: 20 },
    required: ['min_servers', 'discount_percentage'],
    patch: { discount_percentage: 33.33 }, patched: { discount_percentage: 33.33 },
    wrongType: { discount_percentage: '20' }, outOfRange: { discount_percentage: 100.5 }, missing: '999999',
  },
];

for (const c of CASES) {
  describe(`/admin/v1/${c.path}`, () => {
    const base = `/admin/v1/${c.path}`;
    const keyOf = c.keyOf ?? ((row: Body) => String(row.id));
    let created: Body;

    test('POST → 201 with the row (money as strings, defaults filled)', async () => {
      const res = await adminCall(t, 'POST', base, c.create);
      assert.equal(res.statusCode, 201, res.body);
      const body = json(res);
      assert.equal(body.meta.version, '2.0.0');
      created = body.data;
      const { id, ...rest } = created;
      if (!c.keyOf) assert.ok(Number.isInteger(id) && (id as number) > 0);
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
      assert.equal(p2.data.length, 2);
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
  const big = await adminCall(t, 'PATCH', `/admin/v1/plans/${json(res).data.id}`, { price: '99999999.99' });
  assert.equal(big.statusCode, 200, big.body);
  assert.equal(json(big).data.price, '99999999.99');
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

test('reseller tiers: max below min, duplicate min → 422 naming the field; open-ended top tier', async () => {
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/reseller-tiers', { min_servers: 1000, max_servers: 10, discount_percentage: 1 }), ['max_servers']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/reseller-tiers', { min_servers: 10, max_servers: 20, discount_percentage: 1 }), ['min_servers']);
  const list = json(await adminCall(t, 'GET', '/admin/v1/reseller-tiers?per_page=100')).data;
  const first = list[0];
  assertInvalid(await adminCall(t, 'PATCH', `/admin/v1/reseller-tiers/${first.id}`, { max_servers: -1 }), ['max_servers']);
  assertInvalid(await adminCall(t, 'PATCH', `/admin/v1/reseller-tiers/${first.id}`, { min_servers: 10, max_servers: 10 }), ['min_servers']);
  assertInvalid(await adminCall(t, 'PATCH', `/admin/v1/reseller-tiers/${first.id}`, { min_servers: 20 }), ['max_servers']);
  assert.deepEqual(json(await adminCall(t, 'GET', `/admin/v1/reseller-tiers/${first.id}`)).data, first);
  // Tiers are listed by min_servers; the top one is open-ended with a null maximum.
  const mins = list.map((r: Body) => r.min_servers);
  assert.deepEqual(mins, [...mins].sort((a, b) => a - b));
  assert.equal(list.find((r: Body) => r.min_servers === 100).max_servers, null);
  const open = await adminCall(t, 'POST', '/admin/v1/reseller-tiers', { min_servers: 5000, max_servers: null, discount_percentage: 0.07 });
  assert.equal(open.statusCode, 201, open.body);
  assert.equal(json(open).data.max_servers, null);
  assert.equal(json(open).data.discount_percentage, 0.07);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/reseller-tiers', { min_servers: 6000, discount_percentage: 1.005 }), ['discount_percentage']);
  assertInvalid(await adminCall(t, 'POST', '/admin/v1/reseller-tiers', { min_servers: 6000, discount_percentage: -1 }), ['discount_percentage']);
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
  assert.ok(list.includes('sto1'));
  assert.ok(!list.includes('sto2'));
  assert.ok(!list.includes('sto3'));
  assert.ok(!list.includes('sin1'));
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
  assert.deepEqual(v2os.find((o: Body) => o.id === os.id), { id: os.id, name: 'openSUSE 15.6', family: 'openSUSE', version: '15.6', slug: 'opensuse-15.6' });

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
