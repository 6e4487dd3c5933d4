// v1 balance, ledger and catalog: money as numbers (withdrawals negative, refunds as deposits),
// packages with reseller prices and v1 pagination, OS families with versions[], data.locations[],
// and the five package families.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeServer } from '../helpers/servers.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '100.00' });
});

const READS = [
  '/v1/balance', '/v1/balance/transactions', '/v1/packages', '/v1/operating-systems', '/v1/locations', '/v1/email-packages',
  '/v1/web-hosting-packages', '/v1/colocation-packages', '/v1/dedicated-server-packages', '/v1/ip-subnet-packages',
];

describe('balance and transactions', () => {
  test('a charge and its refund: numbers; withdrawals negative; the refund a deposit naming what it refunds; totals add up', async () => {
    const server = await activeServer(t, c);
    const del = await call(t.app, 'DELETE', `/v2/servers/${server.id}`, { key: c.key });
    assert.ok([200, 202].includes(del.statusCode), del.body);

    const v2balance = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount as string;
    const res = await v1(t.app, 'GET', '/v1/balance', { key: c.key });
    assert.equal(res.statusCode, 200);
    const b = json(res).data;
    assert.deepEqual(Object.keys(b).sort(), ['balance', 'total_deposits', 'total_withdrawals']);
    assert.equal(typeof b.balance, 'number');
    assert.equal(b.balance, Number(v2balance));
    assert.equal(b.total_withdrawals, 5, 'Cloud S, one month');
    assert.ok(b.total_deposits > 100 && b.total_deposits < 105, `the deposit and the refund of unused hours: ${b.total_deposits}`);
    assert.equal(Math.round((b.total_deposits - b.total_withdrawals) * 100), Math.round(b.balance * 100));

    const list = await v1(t.app, 'GET', '/v1/balance/transactions', { key: c.key });
    assert.equal(list.statusCode, 200);
    const txs = json(list).data as { id: number; type: string; amount: number; status: string; description: string; created_at: string }[];
    assert.deepEqual(json(list).pagination, { current_page: 1, total: 3, total_pages: 1 });
    assert.deepEqual(txs.map((x) => x.type), ['deposit', 'withdraw', 'deposit'], 'newest first; the refund reads as a deposit');
    const [refund, charge, deposit] = txs;
    assert.equal(charge!.amount, -5);
    assert.match(charge!.description, new RegExp(server.id));
    assert.ok(refund!.amount > 0);
    assert.match(refund!.description, /refund/i);
    assert.equal(deposit!.amount, 100);
    for (const x of txs) {
      assert.deepEqual(Object.keys(x).sort(), ['amount', 'created_at', 'description', 'id', 'status', 'type']);
      assert.equal(x.status, 'completed');
      assert.match(x.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    assert.equal(Math.round(txs.reduce((s, x) => s + x.amount, 0) * 100), Math.round(b.balance * 100), 'the signed amounts sum to the balance');

    const page2 = json(await v1(t.app, 'GET', '/v1/balance/transactions', { key: c.key, query: { page: '2', per_page: '2' } }));
    assert.deepEqual(page2.data.map((x: { id: number }) => x.id), [deposit!.id]);
    assert.deepEqual(page2.pagination, { current_page: 2, total: 3, total_pages: 2 });
    expectV1Error(await v1(t.app, 'GET', '/v1/balance/transactions', { key: c.key, query: { per_page: '0' } }), 422, 'VALIDATION_FAILED', ['per_page']);
    expectV1Error(await v1(t.app, 'GET', '/v1/balance/transactions', { key: c.key, query: { page: 'x' } }), 422, 'VALIDATION_FAILED', ['page']);
  });

  test('another account sees its own ledger only', async () => {
    const other = await createCustomer(t, { deposit: '12.34' });
    assert.deepEqual(json(await v1(t.app, 'GET', '/v1/balance', { key: other.key })).data, { balance: 12.34, total_deposits: 12.34, total_withdrawals: 0 });
    const txs = json(await v1(t.app, 'GET', '/v1/balance/transactions', { key: other.key })).data;
    assert.equal(txs.length, 1);
    assert.equal(txs[0].amount, 12.34);
  });

  test('a key without the billing scope is 403 FORBIDDEN', async () => {
    const narrow = await createCustomer(t, { scopes: ['servers:read'] });
    const err = expectV1Error(await v1(t.app, 'GET', '/v1/balance', { key: narrow.key }), 403, 'FORBIDDEN');
    assert.equal(err.details.reason, 'AUTH_SCOPE_INSUFFICIENT');
  });
});

describe('catalog', () => {
  test('GET /v1/packages: orderable plans with every v1 field, reseller prices null for a customer', async () => {
    const res = await v1(t.app, 'GET', '/v1/packages', { key: c.key });
    assert.equal(res.statusCode, 200);
    const out = json(res);
    assert.deepEqual(out.pagination, { current_page: 1, total: 5, total_pages: 1 });
    assert.ok(!out.data.some((p: { name: string }) => p.name === 'Cloud Legacy'), 'an unavailable plan is not offered');
    assert.deepEqual(out.data[0], {
      id: 1, name: 'Cloud S', cpu_cores: 1, ram_mb: 1024, storage_gb: 25, bandwidth_gb: 1000, monthly_price: 5,
      reseller_monthly_price: null, reseller_discount_percentage: null,
    });
    const p = json(await v1(t.app, 'GET', '/v1/packages', { key: c.key, query: { page: '2', limit: '2' } }));
    assert.deepEqual(p.data.map((x: { name: string }) => x.name), ['Cloud L', 'Cloud XL']);
    assert.deepEqual(p.pagination, { current_page: 2, total: 5, total_pages: 3 });
    assert.equal(json(await v1(t.app, 'GET', '/v1/packages', { key: c.key, query: { limit: '100' } })).data.length, 5);
    expectV1Error(await v1(t.app, 'GET', '/v1/packages', { key: c.key, query: { limit: '101' } }), 422, 'VALIDATION_FAILED', ['limit']);
    expectV1Error(await v1(t.app, 'GET', '/v1/packages', { key: c.key, query: { limit: '-1' } }), 422, 'VALIDATION_FAILED', ['limit']);
  });

  test('a reseller sees its tier\'s price, rounded down as on its charges', async () => {
    const r = await createCustomer(t);
    await t.database.db.updateTable('reseller_tiers').set({ discount_percentage: '12.5' }).where('min_servers', '=', 0).execute();
    assert.equal((await adminCall(t, 'PUT', `/admin/v1/accounts/${r.accountId}/reseller`, { is_reseller: true })).statusCode, 200);
    const pkgs = json(await v1(t.app, 'GET', '/v1/packages', { key: r.key })).data;
    // 12.5 % of 5.00 is 0.625, rounded down to 0.62: 4.38; of 15.00, 1.875 → 1.87: 13.13.
    assert.deepEqual(pkgs.slice(0, 2).map((p: Record<string, unknown>) => [p.monthly_price, p.reseller_monthly_price, p.reseller_discount_percentage]), [
      [5, 4.38, 12.5], [15, 13.13, 12.5],
    ]);
    // The customer next door still sees nulls.
    assert.equal(json(await v1(t.app, 'GET', '/v1/packages', { key: c.key })).data[0].reseller_monthly_price, null);
    await t.database.db.updateTable('reseller_tiers').set({ discount_percentage: '0' }).where('min_servers', '=', 0).execute();
    assert.deepEqual(json(await v1(t.app, 'GET', '/v1/packages', { key: r.key })).data[0].reseller_discount_percentage, 0);
  });

  test('GET /v1/operating-systems: families with versions[] of {id, name}', async () => {
    const res = await v1(t.app, 'GET', '/v1/operating-systems', { key: c.key });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res).data, [
      { id: 1, name: 'Ubuntu', versions: [{ id: 1, name: '24.04' }, { id: 2, name: '22.04' }] },
      { id: 3, name: 'Debian', versions: [{ id: 3, name: '12' }] },
      { id: 4, name: 'Rocky Linux', versions: [{ id: 4, name: '9' }] },
      { id: 5, name: 'AlmaLinux', versions: [{ id: 5, name: '9' }] },
    ]);
    assert.deepEqual(json(res).pagination, { current_page: 1, total: 4, total_pages: 1 });
    const p2 = json(await v1(t.app, 'GET', '/v1/operating-systems', { key: c.key, query: { page: '2', per_page: '3' } }));
    assert.deepEqual(p2.data.map((f: { name: string }) => f.name), ['AlmaLinux']);
    assert.deepEqual(p2.pagination, { current_page: 2, total: 4, total_pages: 2 });
  });

  test('GET /v1/locations: data.locations[] of the locations servers and VMs can use, each active', async () => {
    const res = await v1(t.app, 'GET', '/v1/locations', { key: c.key });
    assert.equal(res.statusCode, 200);
    const out = json(res);
    assert.deepEqual(out.data.locations, [
      { id: 1, name: 'Frankfurt', code: 'fra1', status: 'active' },
      { id: 2, name: 'Amsterdam', code: 'ams1', status: 'active' },
      { id: 3, name: 'New York', code: 'nyc1', status: 'active' },
    ]);
    assert.deepEqual(out.pagination, { current_page: 1, total: 3, total_pages: 1 });
  });

  test('the five package families, in v1 fields with numbers for prices', async () => {
    const get = async (path: string) => {
      const res = await v1(t.app, 'GET', path, { key: c.key });
      assert.equal(res.statusCode, 200, res.body);
      return json(res).data;
    };
    assert.deepEqual((await get('/v1/email-packages'))[0], { id: 1, name: 'Mail Basic', disk_quota_mb: 5120, max_accounts: 5, monthly_price: 1.99 });
    const web = await get('/v1/web-hosting-packages');
    assert.deepEqual(web[0], { id: 1, name: 'Web Starter', disk_quota_mb: 10240, max_domains: 1, monthly_price: 3.99 });
    assert.ok(!web.some((p: { name: string }) => p.name === 'Web Classic'), 'an inactive package is not offered');
    assert.deepEqual((await get('/v1/colocation-packages'))[1], { id: 2, name: 'Quarter Rack', type: 'quarter_rack', monthly_price: 249 });
    assert.deepEqual((await get('/v1/dedicated-server-packages'))[0], { id: 1, name: 'Dedicated E3', cpu_cores: 4, ram_gb: 32, storage_gb: 1000, monthly_price: 79 });
    const subnets = await get('/v1/ip-subnet-packages');
    assert.deepEqual(subnets.map((p: { subnet_size: number; monthly_price: number }) => [p.subnet_size, p.monthly_price]), [[29, 15], [28, 29], [64, 0]]);
    const paged = json(await v1(t.app, 'GET', '/v1/ip-subnet-packages', { key: c.key, query: { per_page: '1', page: '3' } }));
    assert.deepEqual(paged.pagination, { current_page: 3, total: 3, total_pages: 3 });
  });
});

test('every read here: no key or a disallowed IP → 401 INVALID_API_KEY; a wrong method → 405 in the v1 envelope', async () => {
  for (const path of READS) {
    expectV1Error(await v1(t.app, 'GET', path), 401, 'INVALID_API_KEY');
    expectV1Error(await v1(t.app, 'GET', path, { key: c.key, ip: '203.0.113.50' }), 401, 'INVALID_API_KEY');
  }
  expectV1Error(await v1(t.app, 'POST', '/v1/balance', { key: c.key, body: {} }), 405, 'METHOD_NOT_ALLOWED');
});
