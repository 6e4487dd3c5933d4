// The database refuses connections for a while (ALTER DATABASE … ALLOW_CONNECTIONS false, then
// every session terminated: new connections fail with 55000), then takes them again. During:
// every answer is a quick 503 SERVICE_UNAVAILABLE with Retry-After — never a 500, never a hang;
// /readyz says 503 while /healthz still answers; the worker pauses. After: 200 by itself within
// seconds, /readyz 200, the worker resumes and the operations that were cut off finish, each
// create charged once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportFault, until } from '../../scripts/chaos/load.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { CREATE_BODY, assertOnly503s, assertSettled, faultsFor, injectSend, startTestLoad } from '../helpers/faults.ts';

test('refuse connections, then allow them: 503 with Retry-After during, 200 after; /readyz follows; the worker pauses and resumes', { timeout: 120_000 }, async () => {
  // The production wait for a connection (test apps wait longer): what an outage's answers are bound by.
  const t = await startApp({ worker: 'embedded', simDelayMs: 200, operationLeaseS: 3, jobMaintenanceS: 1, databaseConnectTimeoutMs: 5_000 });
  const c = await createCustomer(t, { deposit: '1000.00' });
  const { db, fault } = faultsFor(t);

  const load = startTestLoad({ send: injectSend(t, c.key), clients: 4, createEvery: 8, createBody: CREATE_BODY });
  await until('the load to warm up', 20_000, () => load.samples.length >= 40);
  // Operations in flight when the database goes away.
  const inFlight: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: { ...CREATE_BODY, name: `before-${i}.example.com` } });
    assert.equal(res.statusCode, 201, res.body);
    inFlight.push(json(res).data.id);
  }

  const start = Date.now();
  let during: { ready: number; readyRetryAfter: unknown; health: number };
  try {
    await fault.refuse(db);
    await until('clients to be refused', 10_000, () => load.samples.some((s) => s.at > start && s.status === 503));
    const ready = await call(t.app, 'GET', '/readyz');
    const health = await call(t.app, 'GET', '/healthz');
    during = { ready: ready.statusCode, readyRetryAfter: ready.headers['retry-after'], health: health.statusCode };
    // A real outage, not a blip: many refused answers, and the worker has noticed and paused.
    await until('the outage to be felt by clients and the worker', 15_000, () =>
      load.samples.filter((s) => s.at > start && s.status === 503).length >= 30 && t.logs.some((l) => l.includes('worker paused')));
  } finally {
    await fault.restore(db);
  }
  const end = Date.now();
  await until('clients served again', 20_000, () => {
    const after = load.samples.filter((s) => s.at > end);
    return after.length >= 30 && after.slice(-15).every((s) => s.status < 300);
  });
  await until('/readyz to say ready', 10_000, async () => (await call(t.app, 'GET', '/readyz')).statusCode === 200);
  await load.stop();

  assert.deepEqual(during, { ready: 503, readyRetryAfter: '2', health: 200 });
  assertOnly503s(load.samples);
  const outage = load.samples.filter((s) => s.at > start && s.at < end);
  assert.ok(outage.filter((s) => s.status === 503).length >= 30);
  const slowest = Math.max(...outage.map((s) => s.ms));
  assert.ok(slowest < 5_000, `refused answers come fast (slowest ${slowest} ms), never a hang`);
  const report = reportFault(load.samples, start, end);
  assert.ok(report.recoveryMs < 10_000, `recovered ${report.recoveryMs} ms after connections were allowed again`);
  assert.deepEqual(load.rejected, []);

  await assertSettled(t.database.db, c.accountId, [...inFlight, ...load.created], true);
  assert.ok(t.logs.some((l) => l.includes('worker resumed')), 'the worker resumed by itself');
  assert.ok(!t.logs.some((l) => l.includes('unhandled error')), 'no 500 was logged');
  process.stdout.write(`# refuse connections for ${end - start} ms: clients saw ${JSON.stringify(report.counts)}; slowest refused answer ${slowest} ms; recovery ${report.recoveryMs} ms after restore; ${inFlight.length + new Set(load.created).size} creates settled\n`);
});
