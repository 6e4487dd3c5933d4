// pg-boss's fetch of the next operation jobs reads them in order from an index (job_fetch_order,
// migration 0018) rather than reading and sorting the whole backlog on every fetch.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { sql } from 'kysely';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { OPERATIONS_QUEUE } from '../../src/jobs/queue.ts';
import { startApp } from '../helpers/app.ts';

// pg-boss builds its statements here; the worker's fetch is fetchNextJob's.
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { fetchNextJob(schema: string): (o: object) => string };

const t = await startApp();
const db = t.database.db;

test('a fetch of the next jobs reads as many as it takes, whatever the backlog', async () => {
  await sql`INSERT INTO ${sql.table(`${JOB_SCHEMA}.job`)} (name, data)
    SELECT ${OPERATIONS_QUEUE}, jsonb_build_object('operation_id', 'op_backlog_' || i) FROM generate_series(1, 5000) i`.execute(db);
  await sql`ANALYZE ${sql.table(`${JOB_SCHEMA}.job`)}`.execute(db);
  const fetch = plans.fetchNextJob(JOB_SCHEMA)({ includeMetadata: true });
  interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows': number; Plans?: PlanNode[] }
  const nodes: PlanNode[] = [];
  const walk = (n: PlanNode) => { nodes.push(n); n.Plans?.forEach(walk); };
  // EXPLAIN ANALYZE runs the fetch: in a transaction rolled back, so the jobs stay queued.
  await db.transaction().execute(async (trx) => {
    const plan = await sql.raw<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${fetch.replaceAll('$1', `'${OPERATIONS_QUEUE}'`).replaceAll('$2', '10')}`).execute(trx);
    walk(plan.rows[0]!['QUERY PLAN'][0]!.Plan);
    throw new Rollback();
  }).catch((e: unknown) => { if (!(e instanceof Rollback)) throw e; });
  const summary = nodes.map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''} ${n['Actual Rows']}`).join('\n');
  const scans = nodes.filter((n) => n['Node Type'].endsWith('Scan') && n['Relation Name']?.startsWith('j'));
  assert.ok(scans.length > 0 && scans.every((n) => n['Actual Rows'] <= 10), `each scan of the queue reads at most the 10 it takes:\n${summary}`);
});

class Rollback extends Error {}
