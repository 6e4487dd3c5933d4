// PostgreSQL ends every session of our database mid-load (pg_terminate_backend — what a failover,
// a restart, an administrator or idle_in_transaction_session_timeout does). The process must live
// (a pg.Client with no 'error' listener used to end it), clients get 503 with Retry-After and
// never a 500, then 200 again by themselves; creates retried with their Idempotency-Key are
// charged once; queued operations finish. Once with the API alone, once with the embedded worker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countByStatus, reportFault, until } from '../../scripts/chaos/load.ts';
import { call, createCustomer, startApp } from '../helpers/app.ts';
import { CREATE_BODY, assertOnly503s, assertSettled, faultsFor, injectSend, startTestLoad } from '../helpers/faults.ts';

async function drill(label: string, worker: 'off' | 'embedded') {
  // The production wait for a connection (test apps wait longer): what an outage's answers are bound by.
  const t = await startApp({ worker, simDelayMs: 100, operationLeaseS: 3, jobMaintenanceS: 1, databaseConnectTimeoutMs: 5_000 });
  const c = await createCustomer(t, { deposit: '1000.00' });
  const { db, fault } = faultsFor(t);
  const load = startTestLoad({ send: injectSend(t, c.key), clients: 6, createEvery: 6, createBody: CREATE_BODY });
  await until('the load to warm up', 20_000, () => load.samples.length >= 60);

  let terminated = 0;
  const rounds = [];
  for (let round = 0; round < 4; round++) {
    const at = Date.now();
    terminated += await fault.terminate(db);
    // Recovered: a run of successes after the fault.
    await until(`clients served again after termination ${round + 1}`, 20_000, () => {
      const after = load.samples.filter((s) => s.at > at);
      return after.length >= 40 && after.slice(-15).every((s) => s.status < 300);
    });
    rounds.push(reportFault(load.samples, at, at));
  }
  await load.stop();

  assert.ok(terminated >= 4, `sessions were terminated (${terminated})`);
  assertOnly503s(load.samples);
  const all = countByStatus(load.samples);
  assert.ok((all['503'] ?? 0) > 0, `the terminations reached busy connections: ${JSON.stringify(all)}`);
  assert.deepEqual(load.rejected, [], 'every create was decided 201 after its retries');
  assert.ok(load.created.length > 0);
  // Service is back: a plain request and the readiness probe.
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).statusCode, 200);
  assert.equal((await call(t.app, 'GET', '/readyz')).statusCode, 200);
  assert.ok(!t.logs.some((l) => l.includes('unhandled error')), 'no 500 was logged');
  if (worker === 'off') {
    // Charged once while the operations waited; a worker started now runs every one of them.
    await assertSettled(t.database.db, c.accountId, load.created, false);
    await t.sibling({ worker: 'embedded' });
  }
  await assertSettled(t.database.db, c.accountId, load.created, true);
  const worst = Math.max(...rounds.map((r) => r.recoveryMs));
  process.stdout.write(`# terminate backends (${label}): ${terminated} sessions over 4 rounds; clients saw ${JSON.stringify(all)}; worst recovery ${worst} ms; ${new Set(load.created).size} servers created\n`);
}

test('terminate every backend mid-load, API alone: the process lives, 503 (never 500) then 200, creates charged once (and run by a worker started afterwards)', { timeout: 90_000 }, async () => {
  await drill('API alone', 'off');
});

test('terminate every backend mid-load with the embedded worker: the worker lives too, and every queued operation finishes', { timeout: 120_000 }, async () => {
  await drill('with the embedded worker', 'embedded');
});
