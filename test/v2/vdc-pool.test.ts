// The VDC pool: the operator's GET/PUT /admin/v1/accounts/{id}/vdc-pool and `hostcloud admin
// vdc-pool`, and the customer's GET /v2/vdc/resources.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { adminCli } from '../helpers/admin-cli.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertError } from '../helpers/server-actions.ts';
import { BIG_POOL, assertPoolConsistent, createVm, resources, setPool } from '../helpers/vdc.ts';

let t: TestApp;
let c: Customer;
let url: string;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  c = await createCustomer(t);
});

const ZERO = { total: 0, used: 0, available: 0 };
const BUCKETS = ['cpu', 'ram_mb', 'storage_gb', 'ipv4', 'ipv6', 'bandwidth_mbit'];

test('GET /v2/vdc/resources without a pool: has_pool false and every bucket zero', async () => {
  const res = await call(t.app, 'GET', '/v2/vdc/resources', { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.data, { has_pool: false, cpu: ZERO, ram_mb: ZERO, storage_gb: ZERO, ipv4: ZERO, ipv6: ZERO, bandwidth_mbit: ZERO });
  assert.equal(typeof body.meta.request_id, 'string');
  assert.equal(body.meta.version, '2.0.0');
  const admin = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/vdc-pool`)).data;
  assert.equal(admin.has_pool, false);
  assert.equal(admin.monthly_price, null);
  assert.equal(admin.updated_at, null);
});

test('PUT sets the pool (created the first time); the customer sees total, used and available per bucket', async () => {
  const acc = await createCustomer(t);
  const data = await setPool(t, acc.accountId, { cpu: 8, ram_mb: 16384, storage_gb: 200, ipv4: 4, ipv6: 2, bandwidth_mbit: 500, monthly_price: '250.00' });
  assert.deepEqual(Object.keys(data).sort(), ['account_id', 'bandwidth_mbit', 'cpu', 'has_pool', 'ipv4', 'ipv6', 'monthly_price', 'ram_mb', 'storage_gb', 'updated_at']);
  assert.equal(data.account_id, acc.accountId);
  assert.equal(data.has_pool, true);
  assert.deepEqual(data.cpu, { total: 8, used: 0, available: 8 });
  assert.deepEqual(data.monthly_price, { amount: '250.00', currency: 'USD' });
  assert.match(data.updated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const seen = await resources(t, acc.key);
  assert.deepEqual(seen, {
    has_pool: true, cpu: { total: 8, used: 0, available: 8 }, ram_mb: { total: 16384, used: 0, available: 16384 },
    storage_gb: { total: 200, used: 0, available: 200 }, ipv4: { total: 4, used: 0, available: 4 }, ipv6: { total: 2, used: 0, available: 2 },
    bandwidth_mbit: { total: 500, used: 0, available: 500 },
  });
  assert.ok(!('monthly_price' in seen), 'the price is the operator\'s business');

  // A total left out keeps its value; the price can be cleared.
  const again = await setPool(t, acc.accountId, { cpu: 12, monthly_price: null });
  assert.deepEqual(again.cpu, { total: 12, used: 0, available: 12 });
  assert.deepEqual(again.ram_mb.total, 16384);
  assert.equal(again.monthly_price, null);
  const row = await t.database.db.selectFrom('vdc_pools').selectAll().where('account_id', '=', acc.accountId).executeTakeFirstOrThrow();
  assert.equal(row.monthly_price_cents, null);
  await setPool(t, acc.accountId, { monthly_price: '19.99' });
  assert.equal((await t.database.db.selectFrom('vdc_pools').select('monthly_price_cents').where('account_id', '=', acc.accountId).executeTakeFirstOrThrow()).monthly_price_cents, 1999);
});

test('used follows the VMs, and lowering a total below it is 409 STATE_CONFLICT naming each bucket; nothing changes', async () => {
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, { cpu: 8, ram_mb: 8192, storage_gb: 100, ipv4: 4, ipv6: 0 });
  const vm = await createVm(t, acc, { cpu_cores: 3, ram_mb: 4096, storage_gb: 40 });
  const seen = await resources(t, acc.key);
  assert.deepEqual(seen.cpu, { total: 8, used: 3, available: 5 });
  assert.deepEqual(seen.ram_mb, { total: 8192, used: 4096, available: 4096 });
  assert.deepEqual(seen.storage_gb, { total: 100, used: 40, available: 60 });
  assert.deepEqual(seen.ipv4, { total: 4, used: 1, available: 3 });
  assert.deepEqual(seen.ipv6, ZERO, 'no IPv6 in the pool: the VM takes none');
  assert.deepEqual(seen.bandwidth_mbit, ZERO, 'bandwidth is shared, never reserved');

  const res = await adminCall(t, 'PUT', `/admin/v1/accounts/${acc.accountId}/vdc-pool`, { cpu: 2, ram_mb: 2048, storage_gb: 100 });
  assertError(res, 409, 'STATE_CONFLICT');
  const err = json(res).error;
  assert.deepEqual(err.errors.map((e: { field: string }) => e.field), ['cpu', 'ram_mb']);
  assert.match(err.message, /cpu cannot be 2: the VMs use 3 vCPU/);
  assert.deepEqual((await resources(t, acc.key)).storage_gb.total, 100, 'nothing changed');
  assert.deepEqual((await resources(t, acc.key)).cpu.total, 8);
  // Down to exactly what is used is fine.
  const exact = await setPool(t, acc.accountId, { cpu: 3, ram_mb: 4096, storage_gb: 40, ipv4: 1 });
  assert.deepEqual(exact.cpu, { total: 3, used: 3, available: 0 });
  await assertPoolConsistent(t, acc.accountId);
  await waitForOperation(t, acc.key, vm.operation.id);
});

test('admin pool: unknown account 404, bad input 422 naming the field, an empty body 422', async () => {
  assertError(await adminCall(t, 'GET', '/admin/v1/accounts/acc_nope/vdc-pool'), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'PUT', '/admin/v1/accounts/acc_nope/vdc-pool', { cpu: 1 }), 404, 'RESOURCE_NOT_FOUND');
  const cases: [unknown, string][] = [
    [{ cpu: -1 }, 'cpu'], [{ cpu: 1.5 }, 'cpu'], [{ ram_mb: '1024' }, 'ram_mb'], [{ ipv4: 1_000_000_001 }, 'ipv4'],
    [{ monthly_price: '1.234' }, 'monthly_price'], [{ monthly_price: 5 }, 'monthly_price'], [{ disk: 5 }, 'disk'],
  ];
  for (const [body, field] of cases) assertError(await adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/vdc-pool`, body), 422, 'VALIDATION_FAILED', field);
  assertError(await adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/vdc-pool`, {}), 422, 'VALIDATION_FAILED');
  const none = await t.database.db.selectFrom('vdc_pools').select('account_id').where('account_id', '=', c.accountId).execute();
  assert.deepEqual(none, [], 'refused requests left no pool behind');
  // A customer key is not the admin token.
  assertError(await call(t.app, 'PUT', `/admin/v1/accounts/${c.accountId}/vdc-pool`, { key: c.key, body: { cpu: 1 } }), 401, 'AUTH_INVALID');
});

test('the used counters move only through VMs: writing them directly is refused by the database', async () => {
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, { cpu: 4 });
  await assert.rejects(
    t.database.db.updateTable('vdc_pools').set({ cpu_used: 1 } as never).where('account_id', '=', acc.accountId).execute(),
    /used counters change only through its VMs/,
  );
  await assert.rejects(
    t.database.db.insertInto('vdc_pools').values({ account_id: c.accountId, cpu_used: 2 } as never).execute(),
    /nothing used/,
  );
});

const cli = (args: string[]) => adminCli(t, url, args);

test('hostcloud admin vdc-pool set / get: a table of buckets, --json, input checked first, refusals in the command\'s words', async () => {
  const acc = await createCustomer(t);
  let r = await cli(['vdc-pool', 'get', acc.accountId]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /no pool yet/);

  r = await cli(['vdc-pool', 'set', acc.accountId, '--cpu', '8', '--ram-mb', '16384', '--storage-gb', '200', '--ipv4', '4', '--ipv6', '4', '--bandwidth-mbit', '1000', '--monthly-price', '99.50']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^VDC pool of ${acc.accountId} set\\n`));
  assert.match(r.stdout, /^BUCKET\s+TOTAL\s+USED\s+AVAILABLE$/m);
  assert.match(r.stdout, /^cpu\s+8\s+0\s+8$/m);
  assert.match(r.stdout, /^ram_mb\s+16384\s+0\s+16384$/m);
  assert.match(r.stdout, /^bandwidth_mbit\s+1000\s+0\s+1000$/m);
  assert.match(r.stdout, /^monthly price: 99\.50 USD$/m);

  r = await cli(['vdc-pool', 'get', acc.accountId, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const printed = JSON.parse(r.stdout);
  for (const b of BUCKETS) assert.ok(printed.data[b], b);
  assert.deepEqual(printed.data.ipv6, { total: 4, used: 0, available: 4 });

  r = await cli(['vdc-pool', 'set', acc.accountId, '--cpu', 'many', '--monthly-price', '1.234']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /nothing was changed:\n {2}--cpu must be a whole number from 0 to 1000000000\n {2}--monthly-price must be an amount like 250\.00, or none/);
  r = await cli(['vdc-pool', 'set', acc.accountId]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /nothing to set/);
  r = await cli(['vdc-pool', 'set']);
  assert.match(r.stderr, /ACCOUNT_ID is missing/);
  r = await cli(['vdc-pool', 'set', acc.accountId, '--disk', '5']);
  assert.match(r.stderr, /unknown option --disk/);

  await createVm(t, acc, { cpu_cores: 2 });
  r = await cli(['vdc-pool', 'set', acc.accountId, '--cpu', '1', '--monthly-price', 'none']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /409 STATE_CONFLICT/);
  assert.match(r.stderr, /--cpu cannot be 1: the VMs use 2 vCPU/);
  r = await cli(['vdc-pool', 'get', 'acc_nope']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /404 RESOURCE_NOT_FOUND/);
  r = await cli(['vdc-pool', 'set', acc.accountId, '--monthly-price', 'none']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^monthly price: not billed$/m);
  assert.match(r.stdout, /^cpu\s+8\s+2\s+6$/m);
  const help = await cli(['help']);
  assert.match(help.stdout, /vdc-pool set ACCOUNT_ID \[--cpu N\]/);
});

test('a customer key without the vdc scope is refused; the pool of another account is never shown', async () => {
  const scoped = await createCustomer(t, { scopes: ['servers:read'] });
  assertError(await call(t.app, 'GET', '/v2/vdc/resources', { key: scoped.key }), 403, 'AUTH_SCOPE_INSUFFICIENT');
  const other = await createCustomer(t, { scopes: ['vdc:read'] });
  await setPool(t, c.accountId, BIG_POOL);
  assert.equal((await resources(t, other.key)).has_pool, false);
});
