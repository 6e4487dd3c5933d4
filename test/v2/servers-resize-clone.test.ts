// The billable actions: resize (prorated unit-price difference now, new monthly price) and clone
// (a new server charged its first cycle). Exact ledger, the effect after the worker ran, input
// and balance errors, and a platform failure that refunds and reverts.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { prorate, prorateChange } from '../../src/core/money.ts';
import { cycleHours } from '../../src/core/servers/rules.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { action, assertError, assertLedger, balanceCents, clearFault, ledgerRows, serverRow, setFault } from '../helpers/server-actions.ts';
import { type Json, activeServer } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  // One retry only, so that a persistent upstream fault fails an operation within seconds.
  t = await startApp({ worker: 'embedded', jobRetryLimit: 1 });
  c = await createCustomer(t, { deposit: '300.00' });
});

// Unit prices of the seed: vCPU 4.00, RAM 2.00/GB, disk 0.05/GB.
const CUSTOM = { plan_id: undefined, cpu_cores: 2, ram_mb: 2048, storage_gb: 20 };
const CUSTOM_PRICE = 2 * 400 + 2 * 200 + 20 * 5;

async function accepted(id: string, verb: string, body?: unknown, key = c.key): Promise<Json> {
  const res = await action(t, key, id, verb, body);
  assert.equal(res.statusCode, 202, res.body);
  return json(res).data;
}

/** What the service charges now for `monthlyCents` more a month on this server. */
/** What raising the server's current monthly price by `monthlyCents` costs for the rest of the cycle. */
async function prorated(id: string, monthlyCents: number): Promise<number> {
  const s = await serverRow(t, id);
  const { period, remaining } = cycleHours(s.period_started_at, s.next_billing_at, new Date());
  return prorateChange(s.price_cents, s.price_cents + monthlyCents, remaining, period);
}

const live = async (id: string) => json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data;

test('resize a custom server: the prorated difference is charged at once, the new size and price apply', async () => {
  const s = await activeServer(t, c, CUSTOM);
  assert.equal(s.billing.amount, '13.00');
  const delta = 2 * 400 + 2 * 200 + 20 * 5; // +2 vCPU, +2 GB RAM, +20 GB disk
  const expected = await prorated(s.id, delta);
  const before = await balanceCents(t, c.accountId);

  const data = await accepted(s.id, 'resize', { cpu: 4, ram_gb: 4, disk_gb: 40 });
  assert.equal(data.operation.type, 'server.resize');
  assert.equal(await balanceCents(t, c.accountId), before - expected);
  const charge = await ledgerRows(t, c.accountId, `(${s.id}): resize`);
  assert.deepEqual(charge.map((r) => [r.type, r.amount_cents]), [['withdraw', expected]]);
  assert.equal((await serverRow(t, s.id)).price_cents, CUSTOM_PRICE + delta, 'the monthly price moved with the charge');

  assert.equal((await waitForOperation(t, c.key, data.operation.id)).status, 'completed');
  const after = await live(s.id);
  assert.deepEqual(after.specs, { cpu_cores: 4, ram_mb: 4096, storage_gb: 40 });
  assert.equal(after.billing.amount, '26.00');
  assert.equal(after.power_state, 'running');
  const row = await serverRow(t, s.id);
  assert.deepEqual([row.cpu_cores, row.ram_mb, row.storage_gb], [4, 4096, 40]);
  await assertLedger(t, c.accountId);
});

test('resize: a shrink changes nothing until done, then lowers the price and refunds the rest of the cycle; a package server may grow RAM and disk', async () => {
  const s = await activeServer(t, c, { ...CUSTOM, ram_mb: 4096 });
  const before = await balanceCents(t, c.accountId);
  const oldPrice = (await serverRow(t, s.id)).price_cents;
  const data = await accepted(s.id, 'resize', { ram_gb: 1 });
  assert.equal(await balanceCents(t, c.accountId), before);
  assert.equal((await serverRow(t, s.id)).price_cents, oldPrice, 'not lowered before the platform has shrunk it');
  await waitForOperation(t, c.key, data.operation.id);
  assert.deepEqual((await live(s.id)).specs, { cpu_cores: 2, ram_mb: 1024, storage_gb: 20 });
  const row = await serverRow(t, s.id);
  assert.equal(row.price_cents, 2 * 400 + 1 * 200 + 20 * 5);
  const { period, remaining } = cycleHours(row.period_started_at, row.next_billing_at, new Date());
  const refunded = -prorateChange(oldPrice, row.price_cents, remaining, period);
  assert.ok(refunded > 0);
  assert.equal(await balanceCents(t, c.accountId), before + refunded);
  // Deleting now refunds the rest of the cycle at the new price: with the shrink's refund, the
  // customer gets back what the unused hours at the old price were worth.
  const del = json(await call(t.app, 'DELETE', `/v2/servers/${s.id}`, { key: c.key })).data;
  assert.equal(Math.round(Number(del.refund.amount) * 100) + refunded, prorate(oldPrice, remaining, period));

  const p = await activeServer(t, c); // Cloud S: 1 vCPU, 1 GB, 25 GB, 5.00
  const expected = await prorated(p.id, 200 + 25 * 5);
  const balance = await balanceCents(t, c.accountId);
  const op = await accepted(p.id, 'resize', { ram_gb: 2, disk_gb: 50 });
  assert.equal(await balanceCents(t, c.accountId), balance - expected);
  await waitForOperation(t, c.key, op.operation.id);
  const after = await live(p.id);
  assert.deepEqual(after.specs, { cpu_cores: 1, ram_mb: 2048, storage_gb: 50 });
  assert.deepEqual(after.plan, { id: 1, name: 'Cloud S' });
  assert.equal(after.billing.amount, '8.25');
  await assertLedger(t, c.accountId);
});

test('resize input rules: cpu only for custom servers, disks only grow, something must change', async () => {
  const p = await activeServer(t, c);
  const s = await activeServer(t, c, CUSTOM);
  const balance = await balanceCents(t, c.accountId);
  assertError(await action(t, c.key, p.id, 'resize', { cpu: 2 }), 422, 'VALIDATION_FAILED', 'cpu');
  assertError(await action(t, c.key, s.id, 'resize', { disk_gb: 19 }), 422, 'VALIDATION_FAILED', 'disk_gb');
  assertError(await action(t, c.key, s.id, 'resize', {}), 422, 'VALIDATION_FAILED', 'body');
  assertError(await action(t, c.key, s.id, 'resize'), 422, 'VALIDATION_FAILED', 'body');
  assertError(await action(t, c.key, s.id, 'resize', { cpu: 2, ram_gb: 2, disk_gb: 20 }), 422, 'VALIDATION_FAILED', 'body');
  assertError(await action(t, c.key, s.id, 'resize', { ram_gb: 257 }), 422, 'VALIDATION_FAILED', 'ram_gb');
  assertError(await action(t, c.key, s.id, 'resize', { disk_gb: '40' }), 422, 'VALIDATION_FAILED', 'disk_gb');
  assert.equal(await balanceCents(t, c.accountId), balance);
});

test('resize beyond the balance is 422 INSUFFICIENT_BALANCE and changes nothing', async () => {
  const poor = await createCustomer(t, { deposit: '14.50' });
  const s = await activeServer(t, poor, CUSTOM);
  const row = await serverRow(t, s.id);
  assertError(await action(t, poor.key, s.id, 'resize', { cpu: 64 }), 422, 'INSUFFICIENT_BALANCE');
  assert.deepEqual(await serverRow(t, s.id), row);
  assert.equal(await balanceCents(t, poor.accountId), 150);
  const ops = await t.database.db.selectFrom('operations').select('type').where('resource_id', '=', s.id).execute();
  assert.deepEqual(ops.map((o) => o.type), ['server.create']);
  await assertLedger(t, poor.accountId);
});

test('resize that the platform keeps failing: the operation fails, the charge is refunded, size and price stay', async () => {
  const s = await activeServer(t, c, CUSTOM);
  const before = await balanceCents(t, c.accountId);
  await setFault(t, { mode: 'upstream_error', calls: ['resize'] });
  try {
    const data = await accepted(s.id, 'resize', { disk_gb: 100 });
    const op = await waitForOperation(t, c.key, data.operation.id);
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /provider failed/i);
  } finally {
    await clearFault(t);
  }
  assert.equal(await balanceCents(t, c.accountId), before);
  const rows = await ledgerRows(t, c.accountId, s.id);
  const charged = rows.find((r) => r.description.includes('resize'))!.amount_cents;
  assert.deepEqual(rows.filter((r) => r.type !== 'withdraw' || r.description.includes('resize')).map((r) => [r.type, r.amount_cents]), [['withdraw', charged], ['refund', charged]]);
  const row = await serverRow(t, s.id);
  assert.deepEqual([row.storage_gb, row.price_cents], [20, CUSTOM_PRICE]);
  assert.equal((await live(s.id)).specs.storage_gb, 20);
  await assertLedger(t, c.accountId);
  // The server is free again.
  await waitForOperation(t, c.key, (await accepted(s.id, 'reboot')).operation.id);
});

test('clone: a new pending server charged its first cycle, provisioned from the source by the worker', async () => {
  const src = await activeServer(t, c, { ...CUSTOM, name: 'app.example.com', os_version_id: 3 });
  const before = await balanceCents(t, c.accountId);
  const data = await accepted(src.id, 'clone');
  assert.equal(data.operation.type, 'server.clone');
  assert.deepEqual(data.operation.resource, { type: 'server', id: src.id }, 'the operation runs on the source');
  const clone = data.server;
  assert.notEqual(clone.id, src.id);
  assert.equal(clone.name, 'app-clone.example.com');
  assert.equal(clone.status, 'pending');
  assert.equal(clone.power_state, 'provisioning');
  assert.deepEqual(clone.specs, src.specs);
  assert.equal(clone.location_id, src.location_id);
  assert.equal(clone.billing.amount, '13.00');
  assert.equal(await balanceCents(t, c.accountId), before - CUSTOM_PRICE);
  assertError(await action(t, c.key, src.id, 'reboot'), 409, 'STATE_CONFLICT', undefined);

  assert.equal((await waitForOperation(t, c.key, data.operation.id)).status, 'completed');
  const after = await live(clone.id);
  assert.equal(after.status, 'active');
  assert.equal(after.power_state, 'running');
  assert.equal(after.os, 'debian-12');
  assert.deepEqual(after.specs, src.specs);
  assert.ok(after.network.ipv4.address && after.network.ipv4.address !== src.network.ipv4.address);

  const named = await accepted(src.id, 'clone', { hostname: 'app2.example.com' });
  assert.equal(named.server.name, 'app2.example.com');
  await waitForOperation(t, c.key, named.operation.id);
  await assertLedger(t, c.accountId);
});

test('clone: a taken host name is 409 HOSTNAME_IN_USE naming hostname; a short balance is 422; nothing is written', async () => {
  const src = await activeServer(t, c, { name: 'db.example.com' });
  const first = await accepted(src.id, 'clone');
  await waitForOperation(t, c.key, first.operation.id);
  const before = await balanceCents(t, c.accountId);
  assertError(await action(t, c.key, src.id, 'clone'), 409, 'HOSTNAME_IN_USE', 'hostname');
  assertError(await action(t, c.key, src.id, 'clone', { hostname: 'DB.example.com' }), 409, 'HOSTNAME_IN_USE', 'hostname');
  assert.equal(await balanceCents(t, c.accountId), before);

  const poor = await createCustomer(t, { deposit: '9.99' });
  const s = await activeServer(t, poor);
  assertError(await action(t, poor.key, s.id, 'clone'), 422, 'INSUFFICIENT_BALANCE');
  const list = json(await call(t.app, 'GET', '/v2/servers', { key: poor.key }));
  assert.equal(list.meta.pagination.total, 1);
  assert.equal(await balanceCents(t, poor.accountId), 499);
  await assertLedger(t, poor.accountId);
});

test('clone that the platform cannot build: the clone is cancelled, refunded, and its name is free again', async () => {
  const src = await activeServer(t, c, { name: 'cache.example.com' });
  const before = await balanceCents(t, c.accountId);
  await setFault(t, { mode: 'capacity_unavailable', calls: ['create'] });
  let cloneId: string;
  try {
    const data = await accepted(src.id, 'clone');
    cloneId = data.server.id;
    const op = await waitForOperation(t, c.key, data.operation.id);
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /capacity/i);
  } finally {
    await clearFault(t);
  }
  assert.equal(await balanceCents(t, c.accountId), before);
  const refunds = await ledgerRows(t, c.accountId, `(${cloneId})`);
  assert.deepEqual(refunds.map((r) => [r.type, r.amount_cents]), [['withdraw', 500], ['refund', 500]]);
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${cloneId}`, { key: c.key })).data.status, 'cancelled');
  const again = await accepted(src.id, 'clone');
  assert.equal(again.server.name, 'cache-clone.example.com');
  assert.equal((await waitForOperation(t, c.key, again.operation.id)).status, 'completed');
  await assertLedger(t, c.accountId);
});

test('parallel: billable actions against a balance that covers only some of them; one action per server at a time', async () => {
  const poor = await createCustomer(t, { deposit: '27.00' });
  const servers: Json[] = [];
  for (let i = 0; i < 4; i++) servers.push(await activeServer(t, poor));
  assert.equal(await balanceCents(t, poor.accountId), 700);
  // +1 GB RAM and +25 GB disk = 3.25/month; prorated ≈ 3.24, so 7.00 covers two of them.
  const results = await Promise.all(servers.map((s) => action(t, poor.key, s.id, 'resize', { ram_gb: 2, disk_gb: 50 })));
  const codes = results.map((r) => r.statusCode).sort();
  assert.deepEqual(codes, [202, 202, 422, 422], results.map((r) => r.body).join('\n'));
  for (const r of results.filter((x) => x.statusCode === 422)) assert.equal(json(r).error.code, 'INSUFFICIENT_BALANCE');
  assert.ok((await balanceCents(t, poor.accountId)) >= 0);
  await assertLedger(t, poor.accountId);
  const resizes = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', poor.accountId).where('type', '=', 'server.resize').execute();
  assert.equal(resizes.length, 2, 'a refused charge leaves no operation');
  for (const r of results.filter((x) => x.statusCode === 202)) await waitForOperation(t, poor.key, json(r).data.operation.id);

  // Five reboots at once: one is accepted and the rest are refused while it runs. The simulated
  // platform has no delay here, so a reboot may finish before the last request is read; then that
  // one is accepted too. What must hold either way: every other request is refused 409 and leaves no
  // operation (that two never run at once is test/v2/connection-stall.solo.test.ts's subject).
  const same = await Promise.all(Array.from({ length: 5 }, () => action(t, poor.key, servers[0].id, 'reboot')));
  const accepted = same.filter((r) => r.statusCode === 202);
  assert.ok(accepted.length >= 1, same.map((r) => r.body).join('\n'));
  for (const r of same.filter((x) => x.statusCode !== 202)) {
    assert.equal(r.statusCode, 409, r.body);
    assert.equal(json(r).error.code, 'STATE_CONFLICT');
  }
  for (const r of accepted) await waitForOperation(t, poor.key, json(r).data.operation.id);
  const reboots = await t.database.db.selectFrom('operations').select('id')
    .where('resource_id', '=', servers[0].id).where('type', '=', 'server.reboot').execute();
  assert.equal(reboots.length, accepted.length, 'a refused reboot leaves no operation');
});
