// Catalog reads of v2: exact resource shapes, filtering (available / active / primary provider),
// pagination rules, and /plans/{id} errors. Runs against the seeded demo catalog.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { isServerLocation } from '../../src/core/catalog/customer-lists.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const c = await createCustomer(t);
const db = t.database.db;

const MONEY = /^\d+\.\d{2}$/;

async function get(url: string, query?: Record<string, string>) {
  return call(t.app, 'GET', url, { key: c.key, ...(query ? { query } : {}) });
}

/** 200 list envelope; returns the body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function listOk(res: LightMyRequestResponse): any {
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(Object.keys(body).sort(), ['data', 'meta']);
  assert.ok(Array.isArray(body.data), 'Array.isArray(body.data)');
  assert.deepEqual(Object.keys(body.meta).sort(), ['pagination', 'request_id', 'version']);
  assert.equal(body.meta.version, '2.0.0');
  assert.equal(body.meta.request_id, res.headers['x-request-id']);
  assert.deepEqual(Object.keys(body.meta.pagination).sort(), ['page', 'per_page', 'total', 'total_pages']);
  return body;
}

function assertMoney(m: unknown) {
  assert.deepEqual(Object.keys(m as object).sort(), ['amount', 'currency']);
  const { amount, currency } = m as { amount: unknown; currency: unknown };
  assert.equal(typeof amount, 'string');
  assert.match(amount as string, MONEY);
  assert.equal(currency, 'USD');
}

function assertValidation(res: LightMyRequestResponse, field: string) {
  assert.equal(res.statusCode, 422, res.body);
  const e = json(res).error;
  assert.equal(e.code, 'VALIDATION_FAILED');
  assert.equal(e.errors[0].field, field);
  assert.equal(e.errors[0].code, 'INVALID');
}

test('GET /v2/plans: every plan has the exact plan shape and matches its row', async () => {
  const body = listOk(await get('/v2/plans'));
  const rows = await db.selectFrom('plans').selectAll().orderBy('id').execute();
  assert.ok(rows.length >= 5, 'rows.length >= 5');
  assert.equal(body.data.length, rows.length);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: rows.length, total_pages: 1 });
  for (const [i, p] of body.data.entries()) {
    assert.deepEqual(Object.keys(p).sort(), ['available', 'id', 'name', 'price', 'specs']);
    assert.deepEqual(Object.keys(p.specs).sort(), ['bandwidth_gb', 'cpu_cores', 'ram_mb', 'storage_gb']);
    for (const v of Object.values(p.specs)) assert.ok(Number.isInteger(v), 'Number.isInteger(v)');
    assertMoney(p.price);
    assert.equal(typeof p.available, 'boolean');
    const r = rows[i]!;
    assert.deepEqual(p, {
      id: r.id, name: r.name,
      specs: { cpu_cores: r.cpu_cores, ram_mb: r.ram_mb, storage_gb: r.storage_gb, bandwidth_gb: r.bandwidth_gb },
      price: { amount: (r.price_cents / 100).toFixed(2), currency: 'USD' },
      available: r.available,
    });
  }
  assert.ok(body.data.some((p: { available: boolean }) => !p.available), 'the unavailable plan is listed with available:false');
  assert.deepEqual(body.data.find((p: { name: string }) => p.name === 'Cloud S').price, { amount: '5.00', currency: 'USD' });
});

test('GET /v2/plans pages through with per_page=2, and a page past the end is empty', async () => {
  const total = Number((await db.selectFrom('plans').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const pages = Math.ceil(total / 2);
  const seen: number[] = [];
  for (let p = 1; p <= pages; p++) {
    const body = listOk(await get('/v2/plans', { page: String(p), per_page: '2' }));
    assert.deepEqual(body.meta.pagination, { page: p, per_page: 2, total, total_pages: pages });
    assert.equal(body.data.length, p < pages ? 2 : total - 2 * (pages - 1));
    seen.push(...body.data.map((x: { id: number }) => x.id));
  }
  const all = (await db.selectFrom('plans').select('id').orderBy('id').execute()).map((r) => r.id);
  assert.deepEqual(seen, all, 'pages are disjoint, ordered and cover every plan');
  const past = listOk(await get('/v2/plans', { page: String(pages + 1), per_page: '2' }));
  assert.deepEqual(past.data, []);
  assert.deepEqual(past.meta.pagination, { page: pages + 1, per_page: 2, total, total_pages: pages });
  const far = listOk(await get('/v2/plans', { page: '10000' }));
  assert.deepEqual(far.data, []);
  assert.deepEqual(far.meta.pagination, { page: 10000, per_page: 25, total, total_pages: 1 });
  const max = listOk(await get('/v2/plans', { per_page: '100' }));
  assert.equal(max.meta.pagination.per_page, 100);
});

test('GET /v2/plans: bad page/per_page values are 422 naming the parameter', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: '' }, 'page'],
    [{ page: '99999999999' }, 'page'],
    [{ per_page: '0' }, 'per_page'],
    [{ per_page: '101' }, 'per_page'],
    [{ per_page: 'ten' }, 'per_page'],
    [{ per_page: '2.5' }, 'per_page'],
  ];
  for (const [query, field] of cases) {
    const res = await get('/v2/plans', query);
    assertValidation(res, field);
    assert.equal(json(res).error.doc_url, 'http://api.test/v2/docs/errors#VALIDATION_FAILED');
  }
});

test('GET /v2/plans/{id}: the plan; unknown id 404; non-integer id 422', async () => {
  const row = await db.selectFrom('plans').selectAll().where('available', '=', false).executeTakeFirstOrThrow();
  const res = await get(`/v2/plans/${row.id}`);
  assert.equal(res.statusCode, 200);
  const body = json(res);
  assert.deepEqual(Object.keys(body.meta).sort(), ['request_id', 'version']);
  assert.deepEqual(body.data, {
    id: row.id, name: row.name,
    specs: { cpu_cores: row.cpu_cores, ram_mb: row.ram_mb, storage_gb: row.storage_gb, bandwidth_gb: row.bandwidth_gb },
    price: { amount: (row.price_cents / 100).toFixed(2), currency: 'USD' },
    available: false,
  });

  const missing = await get('/v2/plans/999999');
  assert.equal(missing.statusCode, 404);
  assert.equal(json(missing).error.code, 'RESOURCE_NOT_FOUND');
  for (const bad of ['abc', '0', '1.5', '-3', '99999999999']) assertValidation(await get(`/v2/plans/${bad}`), 'id');
});

test('GET /v2/packages: the plan catalog without bandwidth_gb', async () => {
  const plans = listOk(await get('/v2/plans')).data;
  const body = listOk(await get('/v2/packages'));
  assert.equal(body.data.length, plans.length);
  for (const [i, p] of body.data.entries()) {
    assert.deepEqual(Object.keys(p).sort(), ['available', 'id', 'name', 'price', 'specs']);
    assert.deepEqual(Object.keys(p.specs).sort(), ['cpu_cores', 'ram_mb', 'storage_gb']);
    const { bandwidth_gb: _, ...specs } = plans[i].specs;
    assert.deepEqual(p, { ...plans[i], specs });
  }
  assert.deepEqual(listOk(await get('/v2/packages', { page: '2', per_page: '4' })).meta.pagination.page, 2);
  assertValidation(await get('/v2/packages', { per_page: '101' }), 'per_page');
});

test('GET /v2/operating-systems: flat list of available versions with integer ids', async () => {
  await db.insertInto('operating_systems').values({ family: 'CentOS', version: '7', slug: 'centos-7', available: false }).execute();
  const body = listOk(await get('/v2/operating-systems'));
  assert.ok(body.data.length >= 4, 'body.data.length >= 4');
  const rows = await db.selectFrom('operating_systems').selectAll().where('available', '=', true).orderBy('id').execute();
  // The simulated platform needs no images: every version on sale is installable.
  assert.deepEqual(body.data, rows.map((o) => ({ id: o.id, name: `${o.family} ${o.version}`, family: o.family, version: o.version, slug: o.slug, available: true })));
  for (const o of body.data) {
    assert.ok(Number.isInteger(o.id), 'Number.isInteger(o.id)');
    for (const k of ['name', 'family', 'version', 'slug']) assert.equal(typeof o[k], 'string');
  }
  assert.ok(!body.data.some((o: { slug: string }) => o.slug === 'centos-7'), 'withdrawn versions are not installable');
});

test('GET /v2/locations: only available locations of the primary provider', async () => {
  await db.insertInto('locations').values({ name: 'Closed DC', code: 'zzz-closed', country: 'FR', provider: 'primary', available: false }).execute();
  const body = listOk(await get('/v2/locations'));
  const primary = await db.selectFrom('locations').selectAll().where('provider', '=', 'primary').where('available', '=', true).orderBy('id').execute();
  assert.ok(primary.length >= 3, 'primary.length >= 3');
  assert.deepEqual(body.data, primary.map((l) => ({ id: l.id, name: l.name, code: l.code, country: l.country })));
  assert.equal(body.meta.pagination.total, primary.length);
  const codes = body.data.map((l: { code: string }) => l.code);
  const partner = await db.selectFrom('locations').select('code').where('provider', '<>', 'primary').execute();
  assert.ok(partner.length >= 1, 'the seed has a location not routed to primary');
  for (const p of partner) assert.ok(!codes.includes(p.code), `${p.code} is not routed to primary`);
  assert.ok(!codes.includes('zzz-closed'), 'unavailable locations are not listed');
});

test('GET /v2/web-hosting-packages: active packages only, monthly and yearly prices', async () => {
  const body = listOk(await get('/v2/web-hosting-packages'));
  const active = await db.selectFrom('hosting_packages').selectAll().where('active', '=', true).orderBy('id').execute();
  assert.ok(active.length >= 3, 'active.length >= 3');
  const inactive = await db.selectFrom('hosting_packages').select('id').where('active', '=', false).execute();
  assert.ok(inactive.length >= 1, 'the seed has an inactive package to filter out');
  assert.deepEqual(body.data.map((p: { id: number }) => p.id), active.map((p) => p.id));
  for (const p of body.data) {
    assert.deepEqual(Object.keys(p).sort(), ['disk_quota_mb', 'id', 'max_domains', 'name', 'price']);
    assert.deepEqual(Object.keys(p.price).sort(), ['monthly', 'yearly']);
    assertMoney(p.price.monthly);
    assertMoney(p.price.yearly);
    assert.ok(Number.isInteger(p.disk_quota_mb) && Number.isInteger(p.max_domains), 'Number.isInteger(p.disk_quota_mb) && Number.isInteger(p.max_domains)');
  }
  const starter = body.data.find((p: { name: string }) => p.name === 'Web Starter');
  assert.deepEqual(starter.price, { monthly: { amount: '3.99', currency: 'USD' }, yearly: { amount: '39.90', currency: 'USD' } });
});

test('GET /v2/departments: active departments only', async () => {
  const body = listOk(await get('/v2/departments'));
  const active = await db.selectFrom('departments').select(['id', 'name']).where('active', '=', true).orderBy('id').execute();
  assert.ok(active.length >= 3, 'active.length >= 3');
  assert.deepEqual(body.data, active);
  const inactive = await db.selectFrom('departments').select('id').where('active', '=', false).execute();
  assert.ok(inactive.length >= 1, 'inactive.length >= 1');
  for (const d of inactive) assert.ok(!body.data.some((x: { id: number }) => x.id === d.id), '!body.data.some((x: { id: number }) => x.id === d.id)');
  assert.ok(!JSON.stringify(body).includes('@'), 'staff mailboxes are not exposed');
});

test('catalog lists share the pagination rules', async () => {
  for (const url of ['/v2/packages', '/v2/operating-systems', '/v2/locations', '/v2/web-hosting-packages', '/v2/departments']) {
    const one = listOk(await get(url, { per_page: '1' }));
    assert.equal(one.data.length, 1, url);
    assert.equal(one.meta.pagination.total_pages, one.meta.pagination.total, url);
    assertValidation(await get(url, { page: '0' }), 'page');
    assertValidation(await get(url, { per_page: '101' }), 'per_page');
  }
});

test('catalog reads need an API key', async () => {
  for (const url of ['/v2/plans', '/v2/plans/1', '/v2/packages', '/v2/operating-systems', '/v2/locations', '/v2/web-hosting-packages', '/v2/departments']) {
    const res = await call(t.app, 'GET', url);
    assert.equal(res.statusCode, 401, url);
    assert.equal(json(res).error.code, 'AUTH_REQUIRED');
  }
});

// Runs last: it adds locations, which the exact-list tests above would otherwise see.
test('GET /v2/locations and isServerLocation (the rule server creation will use) agree on every location', async () => {
  await db.insertInto('locations').values([
    { name: 'Both', code: 'agree-1', country: 'FI', provider: 'primary', available: true },
    { name: 'Closed primary', code: 'agree-2', country: 'FI', provider: 'primary', available: false },
    { name: 'Open partner', code: 'agree-3', country: 'FI', provider: 'partner', available: true },
    { name: 'Closed partner', code: 'agree-4', country: 'FI', provider: 'partner', available: false },
  ]).execute();
  const listed = listOk(await get('/v2/locations', { per_page: '100' })).data.map((l: { id: number }) => l.id);
  const rows = await db.selectFrom('locations').selectAll().execute();
  assert.ok(rows.some(isServerLocation) && rows.some((r) => !isServerLocation(r)), 'rows.some(isServerLocation) && rows.some((r) => !isServerLocation(r))');
  for (const r of rows) assert.equal(listed.includes(r.id), isServerLocation(r), r.code);
  assert.equal(listed.length, rows.filter(isServerLocation).length);
});
