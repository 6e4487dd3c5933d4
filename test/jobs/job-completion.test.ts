// The worker's operation jobs are completed by the statement that completes their operations
// (operationJobsCompleted in src/db/queries/jobs.ts, through src/jobs' batchJobCompletions), not by
// a pg-boss complete of their own: the job row must end as pg-boss's complete leaves it, and a
// completion that could not take its job along must say so, so the worker completes it itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { RunResult } from '../../src/core/operations/runner.ts';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { operationJobsCompleted } from '../../src/db/queries/jobs.ts';
import { claimOperations, completeOperations, insertOperation } from '../../src/db/queries/operations.ts';
import type { Operation } from '../../src/db/schema.ts';
import { batchJobCompletions } from '../../src/jobs/operation-completions.ts';
import { OPERATIONS_QUEUE, createJobQueue, executorOf } from '../../src/jobs/queue.ts';
import { createCustomer, startApp } from '../helpers/app.ts';

const t = await startApp({ worker: 'off' });
const db = t.database.db;
const c = await createCustomer(t);
const queue = createJobQueue(db, { retryLimit: 2, retryDelayS: 1, timeoutS: 60 });
const boss = new PgBoss({ db: executorOf(db), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false });

let n = 0;
/** Running operations, each with its job fetched (active), as a worker holds them. */
async function fetchedOps(count: number): Promise<{ op: Operation; jobId: string }[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    n += 1;
    const op = await insertOperation(db, { id: `op_jobdone_${n}`, account_id: c.accountId, type: 'server.power', resource_type: 'server', resource_id: `srv_jobdone_${n}`, params: {}, detail: 'Queued' });
    await queue.enqueueOperation(db, op.id);
    ids.push(op.id);
  }
  const jobs = await boss.fetch<{ operation_id: string }>(OPERATIONS_QUEUE, { batchSize: 100 });
  assert.equal(jobs.length, count);
  const ops = await claimOperations(db, ids, 30);
  return ids.map((id) => ({ op: ops.find((o) => o.id === id)!, jobId: jobs.find((j) => j.data.operation_id === id)!.id }));
}

const jobRow = async (id: string) => (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE id = ${id}`.execute(db)).rows[0]!;

test('a job completed with its operation is the row pg-boss complete leaves', async () => {
  const [theirs, ours] = await fetchedOps(2);
  await boss.complete(OPERATIONS_QUEUE, theirs!.jobId);
  const done = await completeOperations(db, [{ id: ours!.op.id, detail: 'Done' }], [operationJobsCompleted(OPERATIONS_QUEUE, [ours!.jobId])]);
  assert.deepEqual([...done], [ours!.op.id]);
  const a = await jobRow(theirs!.jobId);
  const b = await jobRow(ours!.jobId);
  assert.equal(b.state, 'completed');
  assert.ok(b.completed_on instanceof Date);
  const comparable = (r: Record<string, unknown>) => {
    const { id: _i, data: _d, created_on: _c, started_on: _s, completed_on: _o, start_after: _a, keep_until: _k, ...rest } = r;
    return rest;
  };
  assert.deepEqual(comparable(b), comparable(a));
});

test('only active jobs are completed: one pg-boss already failed or retried stays as it is', async () => {
  const [x] = await fetchedOps(1);
  await boss.fail(OPERATIONS_QUEUE, x!.jobId, { message: 'gave up' });
  const before = await jobRow(x!.jobId);
  await completeOperations(db, [{ id: x!.op.id, detail: 'Done' }], [operationJobsCompleted(OPERATIONS_QUEUE, [x!.jobId])]);
  assert.deepEqual(await jobRow(x!.jobId), before);
});

const plain = (op: Operation): RunResult => ({ detail: `done ${op.id}` });

test('batchJobCompletions completes each job in its operation\'s commit and says so', async () => {
  const complete = batchJobCompletions(db, OPERATIONS_QUEUE);
  const held = await fetchedOps(4);
  // An operation finished elsewhere meanwhile: its job is completed all the same, as before.
  await completeOperations(db, [{ id: held[1]!.op.id, detail: 'Finished by a twin run' }]);
  const settled = await Promise.all(held.map(({ op, jobId }) => complete(op, plain(op), jobId)));
  assert.deepEqual(settled, [true, true, true, true]);
  for (const { jobId } of held) assert.equal((await jobRow(jobId)).state, 'completed');
  await complete.flush();
});

test('a completion that commits alone leaves its job to the caller (false), as does one named without a job', async () => {
  const complete = batchJobCompletions(db, OPERATIONS_QUEUE);
  const [alone, jobless] = await fetchedOps(2);
  // A result with a change of its own, handed in by itself: its own transaction (completeAlone).
  const own = await complete(alone!.op, { detail: 'Done', apply: async () => {} }, alone!.jobId);
  assert.equal(own, false);
  assert.equal((await jobRow(alone!.jobId)).state, 'active');
  assert.equal(await complete(jobless!.op, plain(jobless!.op), undefined), false);
  assert.equal((await jobRow(jobless!.jobId)).state, 'active');
  assert.equal((await db.selectFrom('operations').select('status').where('id', '=', jobless!.op.id).executeTakeFirstOrThrow()).status, 'completed');
});
