// Admin unit prices: a fixed set of units (custom-mode servers and add-ons) whose monthly price
// the operator reads and sets with PUT; an unknown unit is 404, never a new row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const base = '/admin/v1/unit-prices';

type Res = Awaited<ReturnType<typeof call>>;

function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  const { error } = json(res);
  assert.equal(error.code, 'VALIDATION_FAILED');
  assert.deepEqual((error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
}

function assertNotFound(res: Res) {
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  assert.match(json(res).error.doc_url, /#RESOURCE_NOT_FOUND$/);
}

const SEEDED = [
  { unit: 'cpu_core', price: '4.00' }, { unit: 'disk_gb', price: '0.05' }, { unit: 'ipv4', price: '3.00' },
  { unit: 'ipv6', price: '0.50' }, { unit: 'ram_gb', price: '2.00' }, { unit: 'snapshot', price: '1.50' },
];

const list = async (query = '') => json(await adminCall(t, 'GET', `${base}${query}`));

test('GET list → every unit by name with its price as a decimal string, paged', async () => {
  const res = await adminCall(t, 'GET', base);
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.equal(body.meta.version, '2.0.0');
  assert.deepEqual(body.data, SEEDED);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 6, total_pages: 1 });
  const p2 = await list('?per_page=2&page=2');
  assert.deepEqual(p2.data, SEEDED.slice(2, 4));
  assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 2, total: 6, total_pages: 3 });
  assert.deepEqual((await list('?page=9')).data, []);
  assertInvalid(await adminCall(t, 'GET', `${base}?per_page=0`), ['per_page']);
  assertInvalid(await adminCall(t, 'GET', `${base}?page=abc`), ['page']);
});

test('GET one → the unit; an unknown unit → 404', async () => {
  const res = await adminCall(t, 'GET', `${base}/ram_gb`);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, { unit: 'ram_gb', price: '2.00' });
  assertNotFound(await adminCall(t, 'GET', `${base}/gpu`));
  assertNotFound(await adminCall(t, 'GET', `${base}/RAM_GB`));
});

test('PUT → 200 the new price; stored as cents; other units unchanged', async () => {
  const res = await adminCall(t, 'PUT', `${base}/cpu_core`, { price: '4.5' });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, { unit: 'cpu_core', price: '4.50' });
  const row = await db.selectFrom('unit_prices').selectAll().where('unit', '=', 'cpu_core').executeTakeFirstOrThrow();
  assert.equal(row.price_cents, 450);
  assert.deepEqual((await list()).data, [{ unit: 'cpu_core', price: '4.50' }, ...SEEDED.slice(1)]);
  // Free is a price; the largest single ledger movement is the ceiling.
  const free = await adminCall(t, 'PUT', `${base}/ipv6`, { price: '0' });
  assert.deepEqual(json(free).data, { unit: 'ipv6', price: '0.00' });
  const max = await adminCall(t, 'PUT', `${base}/snapshot`, { price: '10000000.00' });
  assert.equal(max.statusCode, 200, max.body);
  assert.deepEqual(json(max).data, { unit: 'snapshot', price: '10000000.00' });
});

test('PUT of an unknown unit → 404 and no row is added', async () => {
  assertNotFound(await adminCall(t, 'PUT', `${base}/gpu`, { price: '9.00' }));
  assertNotFound(await adminCall(t, 'PUT', `${base}/${encodeURIComponent('cpu core')}`, { price: '9.00' }));
  assert.equal((await list()).meta.pagination.total, 6);
  assert.equal(await db.selectFrom('unit_prices').select('unit').where('unit', '=', 'gpu').executeTakeFirst(), undefined);
});

test('PUT of a known unit whose row is missing adds it back', async () => {
  await db.deleteFrom('unit_prices').where('unit', '=', 'disk_gb').execute();
  assertNotFound(await adminCall(t, 'GET', `${base}/disk_gb`));
  const res = await adminCall(t, 'PUT', `${base}/disk_gb`, { price: '0.06' });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json((await adminCall(t, 'GET', `${base}/disk_gb`))).data, { unit: 'disk_gb', price: '0.06' });
  assert.equal((await list()).meta.pagination.total, 6);
});

test('PUT validation: missing, wrong-typed, malformed, too large, unknown field → 422; nothing changes', async () => {
  const before = (await list()).data;
  const url = `${base}/ram_gb`;
  assertInvalid(await adminCall(t, 'PUT', url, {}), ['price']);
  for (const price of [4, null, '', '-1', '1.234', '1e3', 'abc', '4,00']) assertInvalid(await adminCall(t, 'PUT', url, { price }), ['price']);
  for (const price of ['10000000.01', '99999999.99']) {
    const res = await adminCall(t, 'PUT', url, { price });
    assertInvalid(res, ['price']);
    assert.match(json(res).error.errors[0].message, /10000000\.00/);
  }
  assertInvalid(await adminCall(t, 'PUT', url, { price: '1.00', unit: 'gpu' }), ['unit']);
  assertInvalid(await adminCall(t, 'PUT', url, { price: '1.00', colour: 'blue' }), ['colour']);
  assert.deepEqual((await list()).data, before);
});

test('unit prices need the admin token', async () => {
  for (const [method, url] of [['GET', base], ['GET', `${base}/cpu_core`], ['PUT', `${base}/cpu_core`]] as const) {
    const res = await call(t.app, method, url, { body: method === 'PUT' ? { price: '1.00' } : undefined });
    assert.equal(res.statusCode, 401, `${method} ${url}`);
    assert.equal(json(res).error.code, 'AUTH_REQUIRED');
  }
  assert.equal(json(await adminCall(t, 'GET', `${base}/cpu_core`)).data.price, '4.50');
});
