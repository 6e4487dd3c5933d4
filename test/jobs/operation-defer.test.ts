// A run that waits on its upstream longer than it may hold a slot (OperationWaiting: a long
// transfer) puts its job back with deferOperationJob: fetched again once the wait ends, no retry
// spent, its place in the queue kept, and its operation running under a lease that covers the wait
// (a renewal on its way must not shorten it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { claimReads } from '../../src/core/operations/execute.ts';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { deferOperationJob } from '../../src/db/queries/operation-give-back.ts';
import { fetchAndClaimOperations } from '../../src/db/queries/operation-fetch.ts';
import { insertOperation, renewLease } from '../../src/db/queries/operations.ts';
import { OPERATIONS_QUEUE, createJobQueue } from '../../src/jobs/queue.ts';
import { createCustomer, startApp } from '../helpers/app.ts';

const t = await startApp({ worker: 'off' });
const db = t.database.db;
const c = await createCustomer(t, { deposit: '10.00' });
const queue = createJobQueue(db, { retryLimit: 1, retryDelayS: 1, timeoutS: 60 });
const reads = claimReads();

const jobOf = async (opId: string) => (await sql<{ id: string; state: string; retry_count: number; started_on: Date | null; start_after: Date; created_on: Date }>`
  SELECT id, state, retry_count, started_on, start_after, created_on FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE data->>'operation_id' = ${opId}`.execute(db)).rows;
const opOf = (id: string) => db.selectFrom('operations').select(['status', 'attempts', 'lease_until', 'detail']).where('id', '=', id).executeTakeFirstOrThrow();
const fetchOne = async (opId: string) => {
  const got = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 10, 30, reads);
  return got.find((j) => j.operationId === opId);
};

test('a deferred job comes back after its wait, unspent, its operation running under a lease that covers the wait', async () => {
  const op = await insertOperation(db, { id: 'op_defer_1', account_id: c.accountId, type: 'server.power', resource_type: 'server', resource_id: 'srv_defer_1', params: {}, detail: 'Queued' });
  await queue.enqueueOperation(db, op.id);
  const job = await fetchOne(op.id);
  assert.ok(job);
  const [before] = await jobOf(op.id);

  assert.equal(await deferOperationJob(db, OPERATIONS_QUEUE, job.id, op.id, 'Waiting on the upstream', 3600, 60), true);
  const [deferred] = await jobOf(op.id);
  assert.equal(deferred!.state, 'retry');
  assert.equal(deferred!.started_on, null);
  assert.equal(deferred!.retry_count, 0);
  assert.equal(deferred!.created_on.getTime(), before!.created_on.getTime(), 'its place in the queue kept');
  assert.ok(deferred!.start_after.getTime() > Date.now() + 3000_000);
  const waiting = await opOf(op.id);
  assert.equal(waiting.status, 'running');
  assert.equal(waiting.attempts, 0, 'the claim\'s attempt taken back');
  assert.equal(waiting.detail, 'Waiting on the upstream');
  assert.ok(waiting.lease_until!.getTime() > Date.now() + 3600_000);

  // A renewal already on its way when the run ended does not shorten the lease.
  await renewLease(db, op.id, 30);
  assert.equal((await opOf(op.id)).lease_until!.getTime(), waiting.lease_until!.getTime());
  // Not due before its wait ends; then fetched as a first run, not a retry.
  assert.equal(await fetchOne(op.id), undefined);
  // Not this worker's any more: a second defer changes nothing.
  assert.equal(await deferOperationJob(db, OPERATIONS_QUEUE, job.id, op.id, 'again', 1, 60), false);
  await sql`UPDATE ${sql.table(`${JOB_SCHEMA}.job`)} SET start_after = now() WHERE id = ${job.id}::uuid`.execute(db);
  const again = await fetchOne(op.id);
  assert.ok(again);
  assert.equal(again.retryCount, 0);
  assert.equal((await opOf(op.id)).attempts, 1);
});
