// POST /v2/servers/{id}/actions/upgrade: synchronous move to a bigger package. The result shape,
// the prorated charge to the cent, the rules on package_id, state conflicts, and a platform
// failure that answers an error with nothing changed.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import type { Ctx } from '../../src/core/context.ts';
import { formatCents, prorateChange } from '../../src/core/money.ts';
import { executeOperation } from '../../src/core/operations/execute.ts';
import { upgradeServer } from '../../src/core/servers/upgrade.ts';
import type { ComputeProvider } from '../../src/providers/compute/types.ts';
import { connect } from '../../src/db/connection.ts';
import { computeFor } from '../../src/runtime.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import { cycleHours } from '../../src/core/servers/rules.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { action, assertError, assertLedger, balanceCents, clearFault, holdBusy, ledgerRows, serverRow, setFault } from '../helpers/server-actions.ts';
import { type Json, activeServer } from '../helpers/servers.ts';
import { noopRegistrar } from '../../src/providers/registrar/noop.ts';

// Seed plans: 1 Cloud S (1/1 GB/25 GB, 5.00), 2 Cloud M (2/4 GB/80 GB, 15.00), 3 Cloud L (30.00), 6 Cloud Legacy (unavailable).
const CLOUD_M = 2;
const CLOUD_L = 3;
const LEGACY = 6;

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '300.00' });
  other = await createCustomer(t, { deposit: '20.00' });
});

const upgrade = (id: string, body: unknown, key = c.key) => action(t, key, id, 'upgrade', body);

async function expectedCharge(id: string, monthlyDiff: number): Promise<{ cents: number; remaining: number }> {
  const s = await serverRow(t, id);
  const { period, remaining } = cycleHours(s.period_started_at, s.next_billing_at, new Date());
  return { cents: prorateChange(s.price_cents, s.price_cents + monthlyDiff, remaining, period), remaining };
}

test('upgrade Cloud S → Cloud M: 200 with the result and the full server; the difference is prorated and charged', async () => {
  const s = await activeServer(t, c, { name: 'up.example.com' });
  const want = await expectedCharge(s.id, 1000);
  const before = await balanceCents(t, c.accountId);
  const res = await upgrade(s.id, { package_id: CLOUD_M });
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  assert.deepEqual(Object.keys(data).sort(), ['amount', 'id', 'package', 'server', 'upgrade']);
  assert.equal(data.id, s.id);
  assert.equal(data.package, 'Cloud M');
  assert.equal(data.amount, '15.00');
  assert.deepEqual(data.upgrade, { from: 'Cloud S', to: 'Cloud M', charged: { amount: formatCents(want.cents), currency: 'USD' }, remaining_hours: want.remaining });
  assert.deepEqual(data.server.plan, { id: CLOUD_M, name: 'Cloud M' });
  assert.deepEqual(data.server.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 80 });
  assert.equal(data.server.billing.amount, '15.00');
  assert.equal(data.server.status, 'active');

  assert.equal(await balanceCents(t, c.accountId), before - want.cents);
  const rows = await ledgerRows(t, c.accountId, `(${s.id}): upgrade`);
  assert.deepEqual(rows.map((r) => [r.type, r.amount_cents]), [['withdraw', want.cents]]);
  await assertLedger(t, c.accountId);
  const live = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
  assert.deepEqual(live.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 80 }, 'the machine itself was resized');
  const op = await t.database.db.selectFrom('operations').select(['id', 'status', 'lease_until']).where('resource_id', '=', s.id).where('type', '=', 'server.upgrade').executeTakeFirstOrThrow();
  assert.equal(op.status, 'completed');
  assert.equal(op.lease_until, null, 'the request\'s lease ended with it');
  // Nothing was queued: the worker only steps in if the request's lease lapses.
  const job = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'operation_id' = ${op.id}`.execute(t.database.db);
  assert.equal(job.rows[0]!.n, 0);
  // A late run (a sweep that raced the request) finds nothing to do.
  const balance = await balanceCents(t, c.accountId);
  await executeOperation({ db: t.database.db, compute: computeFor(t.config, t.database.db), hosting: noopPanel }, op.id, true);
  assert.equal(await balanceCents(t, c.accountId), balance);
  // The server is free for the next action.
  assert.equal((await action(t, c.key, s.id, 'reboot')).statusCode, 202);
});

/**
 * Upgrades as a request that dies after its first transaction: the platform never answers, and
 * the request's own database connections are gone (closed), so its lease is no longer renewed.
 */
async function abandonedUpgrade(serverId: string, leaseS = 30): Promise<{ opId: string; queued: string[]; abandonedAt: number }> {
  const queued: string[] = [];
  const dying = connect(t.databaseUrl);
  const ctx: Ctx = {
    db: dying.db, accountId: c.accountId, sandbox: false, now: new Date(), providerTimeoutMs: 1000, operationLeaseS: leaseS, hosting: noopPanel,
    compute: { resize: () => new Promise<void>(() => {}) } as unknown as ComputeProvider,
    jobs: { async enqueueOperation(_trx, opId) { queued.push(opId); } },
    registrar: noopRegistrar,
  };
  void upgradeServer(ctx, serverId, CLOUD_M).catch(() => {});
  // The operation row commits with the first transaction.
  for (let i = 0; ; i++) {
    const op = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', serverId).where('type', '=', 'server.upgrade').executeTakeFirst();
    if (op) {
      await dying.close();
      return { opId: op.id, queued, abandonedAt: Date.now() };
    }
    assert.ok(i < 200, 'the first transaction commits');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a request that died mid-upgrade: its operation runs under the request\'s lease, nothing queued; a run finishes the upgrade at the platform', async () => {
  const s = await activeServer(t, c);
  const before = await balanceCents(t, c.accountId);
  const want = await expectedCharge(s.id, 1000);
  const job = await abandonedUpgrade(s.id);
  assert.deepEqual(job.queued, [], 'no delayed job: the lease is the safety net');
  const held = await t.database.db.selectFrom('operations').select(['status', 'lease_until']).where('id', '=', job.opId).executeTakeFirstOrThrow();
  assert.equal(held.status, 'running');
  const leftS = (held.lease_until!.getTime() - Date.now()) / 1000;
  assert.ok(leftS > 20 && leftS <= 30, `leased for OPERATION_LEASE_S (${leftS} s left)`);
  assertError(await action(t, c.key, s.id, 'reboot'), 409, 'STATE_CONFLICT', undefined);
  await executeOperation({ db: t.database.db, compute: computeFor(t.config, t.database.db), hosting: noopPanel }, job.opId, true);
  const op = json(await call(t.app, 'GET', `/v2/operations/${job.opId}`, { key: c.key })).data;
  assert.equal(op.status, 'completed');
  const live = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
  assert.deepEqual(live.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 80 });
  assert.deepEqual(live.plan, { id: CLOUD_M, name: 'Cloud M' });
  assert.equal(await balanceCents(t, c.accountId), before - want.cents);
  await assertLedger(t, c.accountId);
});

test('a request that died mid-upgrade is recovered by the running worker within about OPERATION_LEASE_S, not ten minutes', async () => {
  const s = await activeServer(t, c);
  const before = await balanceCents(t, c.accountId);
  const want = await expectedCharge(s.id, 1000);
  const job = await abandonedUpgrade(s.id, 3);
  let op: Json;
  for (;;) {
    op = json(await call(t.app, 'GET', `/v2/operations/${job.opId}`, { key: c.key })).data;
    if (op.status === 'completed' || op.status === 'failed') break;
    assert.ok(Date.now() - job.abandonedAt < 15_000, `still ${op.status} after 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const recoveredS = (Date.now() - job.abandonedAt) / 1000;
  assert.equal(op.status, 'completed', op.detail);
  // The lease (3 s) plus at most one sweep (every second here) and the run itself.
  assert.ok(recoveredS >= 2 && recoveredS < 10, `recovered after ${recoveredS} s`);
  process.stdout.write(`# upgrade recovery: ${recoveredS.toFixed(1)} s after the request died (OPERATION_LEASE_S=3)\n`);
  const live = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
  assert.deepEqual(live.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 80 });
  assert.equal(await balanceCents(t, c.accountId), before - want.cents, 'charged once');
  await assertLedger(t, c.accountId);
  assert.equal((await action(t, c.key, s.id, 'reboot')).statusCode, 202, 'the server is free again');
});

test('a request that died mid-upgrade and a platform that refuses: the job refunds and puts the server back', async () => {
  const s = await activeServer(t, c);
  const row = await serverRow(t, s.id);
  const before = await balanceCents(t, c.accountId);
  const job = await abandonedUpgrade(s.id);
  await setFault(t, { mode: 'capacity_unavailable', calls: ['resize'] });
  try {
    await executeOperation({ db: t.database.db, compute: computeFor(t.config, t.database.db), hosting: noopPanel }, job.opId, true);
  } finally {
    await clearFault(t);
  }
  assert.equal(json(await call(t.app, 'GET', `/v2/operations/${job.opId}`, { key: c.key })).data.status, 'failed');
  assert.deepEqual({ ...(await serverRow(t, s.id)), updated_at: null }, { ...row, updated_at: null });
  assert.equal(await balanceCents(t, c.accountId), before);
  await assertLedger(t, c.accountId);
  assert.equal((await upgrade(s.id, { package_id: CLOUD_M })).statusCode, 200);
});

test('upgrade a custom server: from is "custom"; extra addresses stay on the bill', async () => {
  const s = await activeServer(t, c, { plan_id: undefined, cpu_cores: 1, ram_mb: 2048, storage_gb: 40, ipv4_count: 2 });
  const row = await serverRow(t, s.id);
  assert.equal(row.price_cents, 400 + 200 * 2 + 40 * 5 + 300);
  const want = await expectedCharge(s.id, 3000 - 1000);
  const res = await upgrade(s.id, { package_id: CLOUD_L });
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  assert.equal(data.upgrade.from, 'custom');
  assert.equal(data.amount, '33.00', 'Cloud L plus the extra IPv4');
  assert.equal(data.upgrade.charged.amount, formatCents(want.cents));
  await assertLedger(t, c.accountId);
});

test('package_id rules: unknown, unavailable, not more expensive, smaller disk — 422 naming package_id, nothing charged', async () => {
  const s = await activeServer(t, c, { plan_id: CLOUD_M });
  const big = await activeServer(t, c, { plan_id: undefined, cpu_cores: 1, ram_mb: 1024, storage_gb: 100 });
  const before = await balanceCents(t, c.accountId);
  for (const [id, pkg, hint] of [[s.id, 999, /no such package/], [s.id, LEGACY, /no such package/], [s.id, 1, /downgrades are not supported/], [s.id, CLOUD_M, /downgrades are not supported/], [big.id, CLOUD_M, /disks only grow/]] as const) {
    const res = await upgrade(id, { package_id: pkg });
    assertError(res, 422, 'VALIDATION_FAILED', 'package_id');
    assert.match(json(res).error.errors[0].message, hint);
  }
  assert.equal(await balanceCents(t, c.accountId), before);
  assert.deepEqual((await serverRow(t, s.id)).plan_id, CLOUD_M);
});

test('plan_id is accepted as package_id is (one catalog, two names); both at once must agree', async () => {
  const s = await activeServer(t, c);
  const res = await upgrade(s.id, { plan_id: CLOUD_M });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).data.upgrade.to, 'Cloud M');
  assert.equal((await serverRow(t, s.id)).plan_id, CLOUD_M);
  // Both names for the same package: accepted.
  const both = await upgrade(s.id, { package_id: CLOUD_L, plan_id: CLOUD_L });
  assert.equal(both.statusCode, 200, both.body);
  assert.equal((await serverRow(t, s.id)).plan_id, CLOUD_L);
  // A refused package names the field it came under.
  const down = await upgrade(s.id, { plan_id: CLOUD_M });
  assertError(down, 422, 'VALIDATION_FAILED', 'plan_id');
  assert.match(json(down).error.errors[0].message, /downgrades are not supported/);
  // Two different packages: refused before anything is looked up or charged.
  const before = await balanceCents(t, c.accountId);
  const differ = await upgrade(s.id, { package_id: CLOUD_M, plan_id: CLOUD_L });
  assertError(differ, 422, 'VALIDATION_FAILED', 'plan_id');
  assert.match(json(differ).error.errors[0].message, /another package/);
  assert.equal(await balanceCents(t, c.accountId), before);
});

test('bad input is 422 VALIDATION_FAILED naming the field', async () => {
  const s = await activeServer(t, c);
  for (const [body, field] of [
    [{}, 'package_id'], [{ package_id: '2' }, 'package_id'], [{ package_id: 2.5 }, 'package_id'], [{ package_id: 0 }, 'package_id'],
    [{ plan_id: '2' }, 'plan_id'], [{ plan_id: 0 }, 'plan_id'], [{ package_id: 2, plan_id: 3 }, 'plan_id'], [{ package_id: 2, size: 3 }, 'size'],
  ] as const) {
    assertError(await upgrade(s.id, body), 422, 'VALIDATION_FAILED', field);
  }
  assertError(await call(t.app, 'POST', `/v2/servers/${s.id}/actions/upgrade`, { key: c.key }), 422, 'VALIDATION_FAILED');
});

test('409 STATE_CONFLICT when the server is not active or another operation runs; 422 when the balance is short', async () => {
  const s = await activeServer(t, c);
  const release = await holdBusy(t, c.accountId, s.id);
  assertError(await upgrade(s.id, { package_id: CLOUD_M }), 409, 'STATE_CONFLICT');
  await release();
  await t.database.db.updateTable('servers').set({ status: 'suspended' }).where('id', '=', s.id).execute();
  assertError(await upgrade(s.id, { package_id: CLOUD_M }), 409, 'STATE_CONFLICT');
  await t.database.db.updateTable('servers').set({ status: 'active' }).where('id', '=', s.id).execute();

  const poor = await createCustomer(t, { deposit: '5.00' });
  const p = await activeServer(t, poor);
  const row = await serverRow(t, p.id);
  assertError(await upgrade(p.id, { package_id: CLOUD_M }, poor.key), 422, 'INSUFFICIENT_BALANCE');
  assert.deepEqual(await serverRow(t, p.id), row);
  const ops = await t.database.db.selectFrom('operations').select('type').where('resource_id', '=', p.id).execute();
  assert.deepEqual(ops.map((o) => o.type), ['server.create'], 'no operation is left behind');
});

test('another account\'s server is 404 and nothing happens', async () => {
  const s = await activeServer(t, c, { name: 'private.example.com' });
  const res = await upgrade(s.id, { package_id: CLOUD_M }, other.key);
  assertError(res, 404, 'RESOURCE_NOT_FOUND');
  assert.ok(!res.body.includes('private.example.com'));
  assert.equal((await serverRow(t, s.id)).plan_id, 1);
  assert.equal(await balanceCents(t, other.accountId), 2000);
});

async function failedUpgrade(mode: string, status: number, code: string): Promise<Json> {
  const s = await activeServer(t, c);
  const row = await serverRow(t, s.id);
  const before = await balanceCents(t, c.accountId);
  await setFault(t, { mode, calls: ['resize'] });
  try {
    assertError(await upgrade(s.id, { package_id: CLOUD_M }), status, code);
  } finally {
    await clearFault(t);
  }
  const after = await serverRow(t, s.id);
  assert.deepEqual({ ...after, updated_at: null }, { ...row, updated_at: null }, 'the server is as it was');
  assert.equal(await balanceCents(t, c.accountId), before);
  const rows = await ledgerRows(t, c.accountId, `(${s.id})`);
  const charged = rows.find((r) => r.type === 'withdraw' && r.description.includes('upgrade'))!.amount_cents;
  assert.deepEqual(rows.filter((r) => r.description.includes('pgrade')).map((r) => [r.type, r.amount_cents]), [['withdraw', charged], ['refund', charged]]);
  await assertLedger(t, c.accountId);
  const op = await t.database.db.selectFrom('operations').select(['status']).where('resource_id', '=', s.id).where('type', '=', 'server.upgrade').executeTakeFirstOrThrow();
  assert.equal(op.status, 'failed');
  const live = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
  assert.deepEqual(live.specs, { cpu_cores: 1, ram_mb: 1024, storage_gb: 25 });
  // Nothing is left holding the server: the upgrade can be tried again.
  assert.equal((await upgrade(s.id, { package_id: CLOUD_M })).statusCode, 200);
  return s;
}

test('the platform fails: 502 UPSTREAM_ERROR, the charge refunded, the server as it was', async () => {
  await failedUpgrade('upstream_error', 502, 'UPSTREAM_ERROR');
});

test('a passing platform error is asked again with the same token: the upgrade goes through, charged once', async () => {
  const s = await activeServer(t, c);
  const before = await balanceCents(t, c.accountId);
  const want = await expectedCharge(s.id, 1000);
  await setFault(t, { mode: 'upstream_error', calls: ['resize'], remaining: 2 });
  try {
    const res = await upgrade(s.id, { package_id: CLOUD_M });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.package, 'Cloud M');
  } finally {
    await clearFault(t);
  }
  assert.equal(await balanceCents(t, c.accountId), before - want.cents);
  assert.deepEqual(json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 80 });
  await assertLedger(t, c.accountId);
});

test('the platform has no capacity: 422 CAPACITY_UNAVAILABLE, nothing changed', async () => {
  await failedUpgrade('capacity_unavailable', 422, 'CAPACITY_UNAVAILABLE');
});

test('sandbox: the same answer with meta.sandbox, nothing persists', async () => {
  const owner = await createCustomer(t, { deposit: '50.00' });
  const s = await activeServer(t, owner);
  const k = json(await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/api-keys`, { name: 'sb', ip_allowlist: ['127.0.0.1'], is_test: true })).data.key;
  const row = await serverRow(t, s.id);
  const res = await upgrade(s.id, { package_id: CLOUD_L }, k);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).meta.sandbox, true);
  assert.equal(json(res).data.package, 'Cloud L');
  assert.deepEqual(await serverRow(t, s.id), row);
  assert.equal(await balanceCents(t, owner.accountId), 4500);
  const ops = await t.database.db.selectFrom('operations').select('type').where('resource_id', '=', s.id).execute();
  assert.deepEqual(ops.map((o) => o.type), ['server.create']);
  assertError(await upgrade(s.id, { package_id: 999 }, k), 422, 'VALIDATION_FAILED', 'package_id');
});
