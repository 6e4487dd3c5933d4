// The billing pass under concurrency and crashes: passes racing in two API app instances and two
// more database pools charge each (resource, period) once and never overdraw; a `hostcloud
// worker` SIGKILLed mid-pass leaves no half-charge, and the next pass finishes the rest.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { connect } from '../../src/db/connection.ts';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertLedger, passer } from '../helpers/billing.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children: ChildProcess[] = [];
after(() => { for (const c of children) c.kill('SIGKILL'); });

let t: TestApp;
before(async () => { t = await startApp(); });

/** `hostcloud worker` on this file's database, billing every second. */
/** The file's database, its connections named so that a dead worker's can be waited out. */
function workerUrl(): string {
  const u = new URL(t.databaseUrl);
  u.searchParams.set('application_name', WORKER_APP);
  return u.toString();
}
const WORKER_APP = 'hc-billing-test-worker';

/**
 * Until PostgreSQL has closed every connection of the workers: a COMMIT a worker sent just
 * before its SIGKILL still completes on the server, after the client is gone.
 */
async function workerConnectionsGone(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${WORKER_APP}`.execute(t.database.db);
    if (rows[0]!.n === 0) return;
    if (Date.now() > deadline) throw new Error('the killed worker\'s connections never closed');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function spawnWorker(): { child: ChildProcess; output: () => string } {
  const { ADMIN_TOKEN: _a, DATA_DIR: _d, ...env } = process.env;
  let out = '';
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'worker'], {
    cwd: root,
    env: { ...env, DATABASE_URL: workerUrl(), BILLING_INTERVAL_S: '1', SIM_DELAY_MS: '0', LOG_LEVEL: 'info', WORKER_CONCURRENCY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  return { child, output: () => out };
}

/** `n` active servers at 5.00 a month whose period ended an hour ago (no machine: suspension needs no provider). */
async function dueServers(accountId: string, n: number, prefix: string): Promise<void> {
  await sql`
    INSERT INTO servers (id, account_id, name, status, power_state, location_id, cpu_cores, ram_mb, storage_gb, price_cents, period_started_at, next_billing_at, created_at)
    SELECT ${prefix} || i, ${accountId}, ${prefix} || i || '.example.com', 'active', 'running', 1, 1, 1024, 25, 500,
           now() - interval '1 month 1 hour', now() - interval '1 hour', now() - interval '1 month 1 hour'
      FROM generate_series(1, ${n}) AS i`.execute(t.database.db);
}

async function chargeCounts(accountId: string) {
  const { rows: [r] } = await sql<{ paid: number; due: number; rows: number; distinct_periods: number; withdrawals: number }>`
    SELECT count(*) FILTER (WHERE status = 'paid')::int AS paid, count(*) FILTER (WHERE status = 'due')::int AS due, count(*)::int AS rows,
           count(DISTINCT (resource_id, period_start))::int AS distinct_periods,
           (SELECT count(*)::int FROM transactions WHERE account_id = ${accountId} AND type = 'withdraw') AS withdrawals
      FROM billing_charges WHERE account_id = ${accountId}`.execute(t.database.db);
  return r!;
}

test('four passes racing (two API app instances, two more pools) charge each server once and never overdraw', { timeout: 120_000 }, async (ctx) => {
  const rich = await createCustomer(t, { deposit: '1000.00' });
  const poor = await createCustomer(t, { deposit: '50.00' });
  await dueServers(rich.accountId, 60, 'srv_rich');
  await dueServers(poor.accountId, 20, 'srv_poor');
  const sibling = await t.sibling();
  // Small pools, connected before the race (a loaded test machine may take seconds to connect).
  const otherPool = connect(t.databaseUrl, { max: 2, connectTimeoutMs: 30_000 });
  const thirdPool = connect(t.databaseUrl, { max: 2, connectTimeoutMs: 30_000 });
  try {
    for (const p of [otherPool, thirdPool]) await sql`SELECT 1`.execute(p.db);
    const started = Date.now();
    const [a, b, c, d] = await Promise.all([
      adminCall(t, 'POST', '/admin/v1/billing/run'),
      sibling.inject({ method: 'POST', url: '/admin/v1/billing/run', headers: { authorization: `Bearer ${t.adminToken}` } }),
      passer(t, {}, otherPool.db)(new Date()),
      passer(t, {}, thirdPool.db)(new Date()),
    ]);
    const ms = Date.now() - started;
    assert.equal(a.statusCode, 200, a.body);
    assert.equal(b.statusCode, 200, b.body);
    const reports = [json(a).data, json(b).data, c, d];
    const charged = reports.reduce((s, r) => s + r.charged, 0);
    const suspended = reports.reduce((s, r) => s + r.suspended, 0);
    ctx.diagnostic(`4 racing passes in ${ms} ms: charged ${reports.map((r) => r.charged).join('+')} = ${charged}, suspended ${reports.map((r) => r.suspended).join('+')} = ${suspended}`);
    // 60 + the poor account's 10 it can pay (50.00 / 5.00).
    assert.equal(charged, 70);
    assert.equal(suspended, 10);
    const r = await chargeCounts(rich.accountId);
    assert.deepEqual(r, { paid: 60, due: 0, rows: 60, distinct_periods: 60, withdrawals: 60 });
    const p = await chargeCounts(poor.accountId);
    assert.deepEqual(p, { paid: 10, due: 10, rows: 20, distinct_periods: 20, withdrawals: 10 });
    assert.equal(await assertLedger(t, rich.accountId), 100_000 - 60 * 500);
    assert.equal(await assertLedger(t, poor.accountId), 0, 'never below zero');
    ctx.diagnostic(`rich: ${JSON.stringify(r)}; poor: ${JSON.stringify(p)}`);

    // Run again: nothing more is charged.
    const again = await Promise.all([adminCall(t, 'POST', '/admin/v1/billing/run'), passer(t, {}, otherPool.db)(new Date())]);
    assert.equal(json(again[0]).data.charged + again[1].charged, 0);
    assert.deepEqual(await chargeCounts(rich.accountId), r);
  } finally {
    await otherPool.close();
    await thirdPool.close();
  }
});

test('a worker SIGKILLed mid-pass: the next pass finishes, nothing is charged twice', { timeout: 120_000 }, async (ctx) => {
  const c = await createCustomer(t, { deposit: '5000.00' });
  const n = 150;
  await dueServers(c.accountId, n, 'srv_kill');
  const { child, output } = spawnWorker();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  let atKill = 0;
  for (;;) {
    atKill = (await chargeCounts(c.accountId)).paid;
    if (atKill > 0) break;
    if (Date.now() > deadline) throw new Error(`the worker never billed:\n${output()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await exited;
  await workerConnectionsGone();
  const afterKill = await chargeCounts(c.accountId);
  ctx.diagnostic(`killed with ${atKill} charges seen; committed at death: ${afterKill.paid} of ${n}`);
  assert.ok(afterKill.paid < n, 'killed mid-pass');
  assert.equal(afterKill.paid, afterKill.withdrawals, 'every committed charge row has its ledger row, and no ledger row lacks one');
  assert.equal(afterKill.due, 0, 'no half-written charge');
  await assertLedger(t, c.accountId);

  const started = Date.now();
  const report = await passer(t)(new Date(), c.accountId);
  ctx.diagnostic(`the next pass took ${Date.now() - started} ms`);
  assert.equal(report.charged, n - afterKill.paid, 'the next pass charges only what was left');
  assert.deepEqual(await chargeCounts(c.accountId), { paid: n, due: 0, rows: n, distinct_periods: n, withdrawals: n });
  assert.equal(await assertLedger(t, c.accountId), 500_000 - n * 500);
  ctx.diagnostic(`next pass charged ${report.charged}; total ${n} charges for ${n} servers`);
});

test('two `hostcloud worker` processes billing on their timers at once: one charge per server', { timeout: 120_000 }, async (ctx) => {
  const c = await createCustomer(t, { deposit: '2000.00' });
  const n = 100;
  await dueServers(c.accountId, n, 'srv_two');
  const workers = [spawnWorker(), spawnWorker()];
  const deadline = Date.now() + 90_000;
  while ((await chargeCounts(c.accountId)).paid < n) {
    if (Date.now() > deadline) throw new Error(`not all billed:\n${workers.map((w) => w.output()).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // A few more ticks of both, to be sure nothing comes twice.
  await new Promise((r) => setTimeout(r, 2_500));
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((resolve) => { if (w.child.exitCode !== null) resolve(null); else w.child.once('exit', resolve); })));
  const counts = await chargeCounts(c.accountId);
  assert.deepEqual(counts, { paid: n, due: 0, rows: n, distinct_periods: n, withdrawals: n });
  assert.equal(await assertLedger(t, c.accountId), 200_000 - n * 500);
  const passes = workers.map((w) => w.output().split('\n').filter((l) => l.includes('"msg":"billing pass"')).map((l) => JSON.parse(l) as { charged: number }));
  const byWorker = passes.map((ps) => ps.reduce((sum, p) => sum + p.charged, 0));
  ctx.diagnostic(`two workers: ${passes.map((ps) => ps.length).join(' and ')} passes; charged ${byWorker.join(' + ')} = ${byWorker[0]! + byWorker[1]!} for ${n} servers`);
  assert.equal(byWorker[0]! + byWorker[1]!, n, 'the workers\' own reports add up to one charge per server');
});
