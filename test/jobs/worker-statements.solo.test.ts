// What a server create costs the worker in statements: at SIM_DELAY_MS=0 the worker's throughput is
// bounded by its round trips to PostgreSQL (one socket write, one backend wake-up each), so the
// count is held here rather than left to the bench to notice. Every statement the worker's own
// pool sends is counted, from its start until the backlog is drained (start-up and idle polls
// included). Before the worker's hot-path work this was 6.5 per create, then about 3.7 (per batch a fetch,
// a claim, a read of the servers, a completion and a job completion); now about 2.6: the platform's
// create and boot, and per batch one statement that fetches, claims and reads, and one that
// completes the operations and their jobs. SHOW_STATEMENTS=1 lists them.
//
// Progress writes are left out of the count: one per PROGRESS_INTERVAL_MS of a running operation, by
// design, so their number follows the machine's speed, not the code's (on a loaded machine every
// create outlived the interval and wrote one: 3.8 each, over the bound). They are printed apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type pg from 'pg';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { connect } from '../../src/db/connection.ts';
import { startWorker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { computeFor, hostingFor } from '../../src/runtime.ts';
import { createCustomer, startApp } from '../helpers/app.ts';
import { createServer } from '../helpers/servers.ts';
import { untilOperationsSettled } from '../helpers/worker-process.ts';

const CREATES = 80;

test('a backlog of server creates costs the worker at most 3.2 statements each (6.5 before the hot-path work, 3.7 before the one-statement fetch)', { timeout: 240_000 }, async () => {
  const t = await startApp();
  const c = await createCustomer(t, { deposit: '1000.00' });
  const ops: string[] = [];
  for (let i = 0; i < CREATES; i++) ops.push((await createServer(t, c)).operation.id as string);

  const workerDb = connect(t.databaseUrl, { max: t.config.workerPoolMax });
  let statements = 0;
  let progressWrites = 0;
  const seen = new Map<string, number>();
  const isProgress = (text: unknown) => typeof text === 'string' && /^update "operations" set "progress_pct" = /.test(text.trim());
  workerDb.pool.on('connect', (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: typeof query }).query = (...a: unknown[]) => {
      if (isProgress(a[0])) progressWrites++;
      else statements++;
      const k = typeof a[0] === 'string' ? a[0].replace(/\s+/g, ' ').slice(0, 90) : 'obj';
      seen.set(k, (seen.get(k) ?? 0) + 1);
      return query(...a);
    };
  });
  const db = workerDb.db;
  const worker = await startWorker({
    db, compute: computeFor(t.config, db), hosting: hostingFor(t.config, db), config: t.config, logger: t.telemetry.logger, renderEvent: renderV2Event,
  });
  try {
    await untilOperationsSettled(t.database.db, ops, 180_000);
  } finally {
    await worker.stop();
    await workerDb.close();
  }
  const done = await t.database.db.selectFrom('operations').select('status').where('id', 'in', ops).execute();
  assert.ok(done.every((o) => o.status === 'completed'), JSON.stringify(done.filter((o) => o.status !== 'completed')));
  const servers = await t.database.db.selectFrom('servers').select(['status', 'power_state', 'provider_ref'])
    .where('account_id', '=', c.accountId).execute();
  assert.ok(servers.every((s) => s.status === 'active' && s.power_state === 'running' && s.provider_ref), JSON.stringify(servers));
  const perCreate = statements / CREATES;
  if (process.env.SHOW_STATEMENTS) for (const [k, v] of [...seen].sort((x, y) => y[1] - x[1])) process.stdout.write(`# ${v} ${k}\n`);
  process.stdout.write(`# worker statements: ${statements} for ${CREATES} server creates (${perCreate.toFixed(2)} each), and ${progressWrites} progress writes\n`);
  assert.ok(perCreate <= 3.2, `${perCreate.toFixed(2)} statements per create`);
  // Their jobs were completed with them (pg-boss's complete of each, made by the completing statement).
  const jobs = await sql<{ state: string; n: number }>`SELECT state, count(*)::int AS n FROM ${sql.table(`${JOB_SCHEMA}.job`)}
    WHERE data->>'operation_id' = ANY(${ops}::text[]) GROUP BY state`.execute(t.database.db);
  assert.deepEqual(jobs.rows, [{ state: 'completed', n: CREATES }]);
});
