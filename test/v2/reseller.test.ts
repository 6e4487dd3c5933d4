// Reseller status: GET /v2/reseller and /v2/reseller/tiers, the operator's switch, and the tier
// discount on every server charge (create, clone, resize, upgrade, extra address, snapshot) with
// the discount named in the transaction — and refunds of unused hours returning what was paid.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeServer, createServer } from '../helpers/servers.ts';

let t: TestApp;
let r: Customer;

type Tx = { type: string; amount: { amount: string }; description: string };

/** The ladder of this file: 0 servers 0 %, 1–2 servers 10 %, 3 or more 12.5 % (open-ended). */
const LADDER = [
  { min_servers: 0, max_servers: 0, discount_percentage: 0 },
  { min_servers: 1, max_servers: 2, discount_percentage: 10 },
  { min_servers: 3, max_servers: null, discount_percentage: 12.5 },
];

before(async () => {
  t = await startApp({ worker: 'embedded' });
  await t.database.db.deleteFrom('reseller_tiers').execute();
  await t.database.db.insertInto('reseller_tiers').values(LADDER).execute();
  r = await createCustomer(t, { deposit: '300.00' });
});

const status = async (c: Customer) => json(await call(t.app, 'GET', '/v2/reseller', { key: c.key })).data;
const tiers = async (c: Customer) => json(await call(t.app, 'GET', '/v2/reseller/tiers', { key: c.key })).data;
const current = (ladder: { tiers: { min_servers: number; is_current: boolean }[] }) => ladder.tiers.filter((x) => x.is_current).map((x) => x.min_servers);
async function lastWithdraw(c: Customer): Promise<Tx> {
  const txs = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'withdraw' } })).data as Tx[];
  return txs[0]!;
}
const setReseller = (c: Customer, body: unknown) => adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/reseller`, body);

test('a non-reseller: is_reseller false, discount 0, no current tier; the ladder is shown with no tier current', async () => {
  const c = await createCustomer(t, { deposit: '20.00' });
  await activeServer(t, c);
  const s = await status(c);
  assert.deepEqual(s, { is_reseller: false, discount_percentage: 0, discount_type: 'percentage', active_server_count: 1, current_tier: null });
  const l = await tiers(c);
  assert.deepEqual(Object.keys(l).sort(), ['active_server_count', 'discount_type', 'is_reseller', 'tiers']);
  assert.equal(l.is_reseller, false);
  assert.equal(l.active_server_count, 1);
  assert.deepEqual(l.tiers, LADDER.map((x) => ({ ...x, is_current: false })));
  // Its charges carry no discount.
  const created = await createServer(t, c);
  const tx = await lastWithdraw(c);
  assert.equal(tx.amount.amount, '5.00');
  assert.equal(tx.description, `Server ${created.name} (${created.id}): first monthly cycle, 5.00 USD`);
});

test('the operator switch: validation, unknown account, and the status it answers', async () => {
  for (const body of [{}, { is_reseller: 'yes' }, { is_reseller: true, discount_type: 'fixed' }, { is_reseller: true, extra: 1 }]) {
    const res = await setReseller(r, body);
    assert.equal(res.statusCode, 422, JSON.stringify(body));
  }
  assert.equal((await adminCall(t, 'PUT', '/admin/v1/accounts/acc_nope/reseller', { is_reseller: true })).statusCode, 404);
  const res = await setReseller(r, { is_reseller: true, discount_type: 'percentage' });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, {
    is_reseller: true, discount_percentage: 0, discount_type: 'percentage', active_server_count: 0,
    current_tier: { min_servers: 0, max_servers: 0, discount_percentage: 0 },
  });
});

test('a reseller: is_current moves up the ladder as servers become active, and each create gets the tier of its moment', async () => {
  await setReseller(r, { is_reseller: true });
  assert.deepEqual(current(await tiers(r)), [0]);
  // 0 active servers: 0 % — no discount named.
  const s0 = await activeServer(t, r, { name: 's0.example.com' });
  const tx0 = await lastWithdraw(r);
  assert.equal(tx0.description, `Server s0.example.com (${s0.id}): first monthly cycle, 5.00 USD`);
  const st = await status(r);
  assert.equal(st.active_server_count, 1);
  assert.deepEqual(st.current_tier, { min_servers: 1, max_servers: 2, discount_percentage: 10 });
  assert.equal(st.discount_percentage, 10);
  assert.deepEqual(current(await tiers(r)), [1]);

  // 1 active server: 10 % off the 5.00 create, named in the transaction.
  const s1 = await activeServer(t, r, { name: 's1.example.com' });
  const tx1 = await lastWithdraw(r);
  assert.equal(tx1.amount.amount, '4.50');
  assert.equal(tx1.description, `Server s1.example.com (${s1.id}): first monthly cycle, 5.00 USD less 10 % reseller discount = 4.50 USD`);
  const row = await t.database.db.selectFrom('servers').select(['price_cents', 'discount_cents']).where('id', '=', s1.id).executeTakeFirstOrThrow();
  assert.deepEqual(row, { price_cents: 500, discount_cents: 50 }, 'the list price, and the discount it holds');
  assert.equal(s1.billing.amount, '5.00', 'billing.amount is the list price');

  // 2 active: still 10 %. A pending server does not count.
  const s2 = await createServer(t, r, { name: 's2.example.com' });
  assert.equal((await status(r)).active_server_count, 2);
  await waitForOperation(t, r.key, s2.operation.id);
  // 3 active: 12.5 %, the open-ended top tier.
  const st3 = await status(r);
  assert.equal(st3.active_server_count, 3);
  assert.deepEqual(st3.current_tier, { min_servers: 3, max_servers: null, discount_percentage: 12.5 });
  assert.deepEqual(current(await tiers(r)), [3]);
  const s3 = await createServer(t, r, { name: 's3.example.com' });
  const tx3 = await lastWithdraw(r);
  assert.equal(tx3.amount.amount, '4.38', '5.00 less 12.5 % = 4.375: the discount is rounded down to the cent (0.62)');
  assert.equal(tx3.description, `Server s3.example.com (${s3.id}): first monthly cycle, 5.00 USD less 12.5 % reseller discount = 4.38 USD`);
  await waitForOperation(t, r.key, s3.operation.id);
});

test('the discount applies to every other server charge: snapshot, extra address, resize, upgrade, clone', async () => {
  await setReseller(r, { is_reseller: true });
  assert.ok((await status(r)).active_server_count >= 3, 'in the 12.5 % tier');
  const s = await activeServer(t, r, { name: 'charges.example.com' });

  const snap = await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots`, { key: r.key, body: { name: 'before' } });
  assert.equal(snap.statusCode, 201, snap.body);
  const snapTx = await lastWithdraw(r);
  assert.equal(snapTx.amount.amount, '1.32');
  assert.match(snapTx.description, /: first month, 1\.50 USD less 12\.5 % reseller discount = 1\.32 USD$/);
  await waitForOperation(t, r.key, json(snap).data.operation.id);

  const ip = await call(t.app, 'POST', `/v2/servers/${s.id}/ips`, { key: r.key, body: { version: 4 } });
  assert.equal(ip.statusCode, 201, ip.body);
  const ipTx = await lastWithdraw(r);
  const [, list, paid] = /, (\d+\.\d\d) USD less 12\.5 % reseller discount = (\d+\.\d\d) USD$/.exec(ipTx.description) ?? [];
  assert.ok(list && paid, ipTx.description);
  assert.equal(ipTx.amount.amount, paid);
  assert.ok(Number(paid) < Number(list) && Number(paid) >= Number(list) * 0.875 - 0.02, `${paid} is about 87.5 % of ${list}`);

  const resize = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/resize`, { key: r.key, body: { ram_gb: 2 } });
  assert.equal(resize.statusCode, 202, resize.body);
  assert.match((await lastWithdraw(r)).description, /resize to .* USD less 12\.5 % reseller discount = \d+\.\d\d USD$/);
  await waitForOperation(t, r.key, json(resize).data.operation.id);

  const upgrade = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/upgrade`, { key: r.key, body: { package_id: 3 } });
  assert.equal(upgrade.statusCode, 200, upgrade.body);
  const upTx = await lastWithdraw(r);
  assert.match(upTx.description, /upgrade .* → Cloud L, .* USD less 12\.5 % reseller discount = \d+\.\d\d USD$/);
  assert.equal(json(upgrade).data.upgrade.charged.amount, upTx.amount.amount);

  const row = await t.database.db.selectFrom('servers').select(['price_cents', 'discount_cents']).where('id', '=', s.id).executeTakeFirstOrThrow();
  // Cloud L 30.00 + an extra IPv4 3.00 = 33.00 list. The discount held is 12.5 % of each monthly
  // change, rounded down: create 5.00 → 0.62, address +3.00 → 0.37, resize +2.00 → 0.25, upgrade +23.00 → 2.87.
  assert.equal(row.price_cents, 3300);
  assert.equal(row.discount_cents, 62 + 37 + 25 + 287);

  const clone = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/clone`, { key: r.key, body: {} });
  assert.equal(clone.statusCode, 202, clone.body);
  assert.match((await lastWithdraw(r)).description, /first monthly cycle, clone of .*, 30\.00 USD less 12\.5 % reseller discount = 26\.25 USD$/);
  await waitForOperation(t, r.key, json(clone).data.operation.id);
});

test('deleting a discounted server refunds the unused part of what it paid, not of its list price', async () => {
  await setReseller(r, { is_reseller: true });
  const s = await activeServer(t, r, { name: 'refund.example.com' });
  const paid = Number((await lastWithdraw(r)).amount.amount);
  assert.equal(paid, 4.38);
  const res = await call(t.app, 'DELETE', `/v2/servers/${s.id}`, { key: r.key });
  assert.equal(res.statusCode, 200, res.body);
  const refund = Number(json(res).data.refund.amount);
  assert.ok(refund <= paid, `refund ${refund} ≤ paid ${paid}`);
  assert.ok(refund >= paid - 0.05, `nearly a whole cycle unused: ${refund}`);
});

test('a shrink keeps the discount\'s share of the price, and refunds the unused part of the difference actually paid', async () => {
  await setReseller(r, { is_reseller: true });
  // Custom: 1 vCPU 4.00 + 2 GB 4.00 + 20 GB 1.00 = 9.00 list, 12.5 % → 1.12 off.
  const s = await activeServer(t, r, { plan_id: undefined, cpu_cores: 1, ram_mb: 2048, storage_gb: 20 });
  const before_ = await t.database.db.selectFrom('servers').select(['price_cents', 'discount_cents']).where('id', '=', s.id).executeTakeFirstOrThrow();
  assert.deepEqual(before_, { price_cents: 900, discount_cents: 112 });
  const res = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/resize`, { key: r.key, body: { ram_gb: 1 } });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal((await waitForOperation(t, r.key, json(res).data.operation.id)).status, 'completed');
  const after = await t.database.db.selectFrom('servers').select(['price_cents', 'discount_cents']).where('id', '=', s.id).executeTakeFirstOrThrow();
  // 7.00 list; the discount scaled to 7/9 of 1.12 = 0.871…, rounded up to 0.88: it pays 6.12 instead of 7.88.
  assert.deepEqual(after, { price_cents: 700, discount_cents: 88 });
  const txs = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: r.key, query: { type: 'refund' } })).data as Tx[];
  const refund = txs.find((x) => x.description.includes(s.id) && x.description.includes('smaller size'));
  assert.ok(refund, JSON.stringify(txs.slice(0, 3)));
  assert.ok(Number(refund.amount.amount) <= 1.76 && Number(refund.amount.amount) >= 1.70, `the unused part of 7.88 − 6.12 = 1.76: ${refund.amount.amount}`);
});

test('switched off, the discount stops at once', async () => {
  const res = await setReseller(r, { is_reseller: false });
  assert.equal(json(res).data.is_reseller, false);
  assert.equal(json(res).data.current_tier, null);
  assert.equal(json(res).data.discount_percentage, 0);
  const s = await createServer(t, r);
  const tx = await lastWithdraw(r);
  assert.equal(tx.amount.amount, '5.00');
  assert.equal(tx.description, `Server ${s.name} (${s.id}): first monthly cycle, 5.00 USD`);
  await waitForOperation(t, r.key, s.operation.id);
});

test('a count that falls between tiers has no current tier and no discount', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  await setReseller(c, { is_reseller: true });
  await t.database.db.deleteFrom('reseller_tiers').where('min_servers', '=', 0).execute();
  try {
    const s = await status(c);
    assert.equal(s.active_server_count, 0);
    assert.equal(s.current_tier, null);
    assert.equal(s.discount_percentage, 0);
    assert.deepEqual(current(await tiers(c)), []);
  } finally {
    await t.database.db.insertInto('reseller_tiers').values(LADDER[0]!).execute();
  }
});

test('scopes: reseller:read is what these need', async () => {
  const c = await createCustomer(t, { scopes: ['servers:read'] });
  for (const url of ['/v2/reseller', '/v2/reseller/tiers']) {
    const res = await call(t.app, 'GET', url, { key: c.key });
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  }
  const ok = await createCustomer(t, { scopes: ['reseller:read'] });
  assert.equal((await call(t.app, 'GET', '/v2/reseller', { key: ok.key })).statusCode, 200);
});
