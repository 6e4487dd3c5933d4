// A worker runs more operations at once (WORKER_CONCURRENCY) than it has connections
// (WORKER_POOL_MAX): an operation holds a connection only while a statement of its own runs. The
// hazard is a run that holds one connection while it waits for a second: with every connection so
// held, the worker would stall. And in `serve` the embedded worker has a pool of its own, so its
// operations never queue the requests' statements.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startWorker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { connect } from '../../src/db/connection.ts';
import { computeFor, hostingFor, openStore, registrarFor } from '../../src/runtime.ts';
import { createCustomer, startApp } from '../helpers/app.ts';
import { createServer } from '../helpers/servers.ts';
import { untilOperationsSettled } from '../helpers/worker-process.ts';

const CREATES = 40;

test('12 operations at once on 3 connections: the backlog drains, every create completes, statements waited for a connection', { timeout: 60_000 }, async () => {
  const t = await startApp();
  const c = await createCustomer(t, { deposit: '1000.00' });
  const ops: string[] = [];
  for (let i = 0; i < CREATES; i++) ops.push((await createServer(t, c)).operation.id as string);

  // Provider steps that take a little time: runs sleep between their statements, as in production.
  const config = { ...t.config, workerConcurrency: 12, workerPoolMax: 3, simDelayMs: 5 };
  const workerDb = connect(t.databaseUrl, { max: config.workerPoolMax, genericPlans: true });
  let mostWaiting = 0;
  let mostOpen = 0;
  workerDb.pool.on('acquire', () => {
    mostWaiting = Math.max(mostWaiting, workerDb.pool.waitingCount);
    mostOpen = Math.max(mostOpen, workerDb.pool.totalCount);
  });
  const db = workerDb.db;
  const worker = await startWorker({
    db, compute: computeFor(config, db), hosting: hostingFor(config, db), registrar: registrarFor(config, db), config, logger: t.telemetry.logger, renderEvent: renderV2Event,
  });
  try {
    await untilOperationsSettled(t.database.db, ops);
  } finally {
    await worker.stop();
    await workerDb.close();
  }
  const done = await t.database.db.selectFrom('operations').select(['status', 'attempts']).where('id', 'in', ops).execute();
  assert.ok(done.every((o) => o.status === 'completed'), JSON.stringify(done.filter((o) => o.status !== 'completed')));
  // No run was cut off and tried again (a connection wait that timed out would count as an outage).
  assert.ok(done.every((o) => o.attempts === 1), JSON.stringify(done.filter((o) => o.attempts !== 1)));
  assert.ok(mostOpen <= 3, `${mostOpen} connections open`);
  assert.ok(mostWaiting > 0, 'the test never had more statements than connections: it proves nothing');
  assert.ok(!t.logs.some((l) => /"level":(50|60)/.test(l)), t.logs.filter((l) => /"level":(50|60)/.test(l)).join('\n'));
});

test('serve with the embedded worker: the worker has a pool of its own (WORKER_POOL_MAX) beside the requests\' (DATABASE_POOL_MAX); a worker alone has one', async () => {
  const t = await startApp();
  const config = { ...t.config, databaseUrl: t.databaseUrl, databasePoolMax: 4, workerPoolMax: 5 };
  const serving = await openStore(config, undefined, { runsWorker: true });
  try {
    assert.ok(serving.workerDatabase && serving.workerDatabase !== serving.database);
    assert.equal(serving.database.pool.options.max, 4);
    assert.equal(serving.workerDatabase.pool.options.max, 5);
  } finally {
    await serving.close();
  }
  const working = await openStore(config, undefined, { runsWorker: true, servesRequests: false });
  try {
    assert.equal(working.workerDatabase, working.database);
    assert.equal(working.database.pool.options.max, 5);
  } finally {
    await working.close();
  }
  const apiOnly = await openStore(config, undefined, {});
  try {
    assert.equal(apiOnly.workerDatabase, null);
    assert.equal(apiOnly.database.pool.options.max, 4);
  } finally {
    await apiOnly.close();
  }
});
