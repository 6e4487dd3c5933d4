// The worker's fetch: the next jobs of the operations queue taken as pg-boss 10's fetch takes them,
// their operations claimed, and what the runners read for them, in one statement — three round
// trips per batch were one each (the fetch, the claim, the runners' batched read), and a fetch
// whose answer is lost now leaves its operations running under a lease that lapses (recovered like
// a dead worker's) rather than claimed by no one.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection.ts';
import { JOB_SCHEMA } from '../names.ts';
import type { Operation } from '../schema.ts';

/**
 * What a runner reads for each operation of its type when the worker claims it: `expression`, a
 * value over `c` (the claimed operations row) in the claiming statement, and `revive`, what the
 * run gets (RunContext.loaded) from that value as it arrives (JSON, dates as strings).
 */
export interface ClaimedRead<T> {
  readonly expression: RawBuilder<unknown>;
  revive(value: unknown): T;
}

export interface FetchedOperationJob {
  /** The pg-boss job's id. */
  id: string;
  operationId: string;
  retryCount: number;
  retryLimit: number;
  /** The operation, claimed for this run; null when it was finished already (nothing to run). */
  operation: Operation | null;
  /** What its type's ClaimedRead read for it; undefined when its type reads nothing so. */
  loaded: unknown;
  /** When the job was queued (its place in the queue's order). */
  createdOn: Date;
}

interface Row extends Operation {
  job_id: string;
  job_operation_id: string;
  job_retry_count: number;
  job_retry_limit: number;
  job_loaded: unknown;
  job_created_on: Date;
}

/**
 * Takes up to `batchSize` due jobs of `queue` — pg-boss 10's fetchNextJob (plans.js): in (priority,
 * created_on, id) order, skipping locked ones, made active with their retry count as pg-boss keeps
 * it — and claims their operations as claimOperations does. The singleton and stately grouping of
 * pg-boss's fetch is left out: the operations queue's policy is standard (migration 0002).
 * `reads`: the ClaimedRead of each operation type that has one.
 *
 * `from`: only jobs of priority 0 queued at or after it. The queue's index (job_fetch_order,
 * migration 0018) keeps an entry for every job that was once queued until VACUUM removes it, and
 * a fetch from the start of the queue steps over all of them: ~1 ms of the database's CPU per
 * fetch after 60,000 jobs (autovacuum only runs after 20 % of the table changed, and not at all
 * where it is off). From the first job of the previous fetch, it starts where the live ones
 * begin. Jobs it passes over (a retry keeps its place, priorities, a job whose transaction began
 * before `from`) are for a fetch without `from`, which the caller makes now and then.
 *
 * The jobs and operations it takes are found by key (`= ANY (ARRAY(…))`), not joined: the worker's
 * generic plan cannot know the batch size, and with statistics taken while a backlog was queued it
 * planned the join as a hash over a sequential scan of every operation ever made (operations are
 * kept) and of the queue's partition, on every fetch, for the connection's life.
 */
export async function fetchAndClaimOperations(
  db: Db, queue: string, batchSize: number, leaseS: number, reads: ReadonlyMap<string, ClaimedRead<unknown>>, from?: Date,
): Promise<FetchedOperationJob[]> {
  const job = sql.table(`${JOB_SCHEMA}.job`);
  const after = from === undefined ? sql`` : sql`AND priority = 0 AND created_on >= ${from}::timestamptz`;
  const loaded = reads.size === 0
    ? sql`NULL::json`
    : sql`CASE c.type ${sql.join([...reads].map(([type, read]) => sql`WHEN ${type}::text THEN ${read.expression}`), sql` `)} END`;
  const r = await sql<Row>`
    WITH next AS (
      SELECT id FROM ${job}
      WHERE name = ${queue}::text AND state < 'active' AND start_after < now() ${after}
      ORDER BY priority DESC, created_on, id
      LIMIT ${batchSize}::int
      FOR UPDATE SKIP LOCKED
    ), fetched AS (
      UPDATE ${job} j SET state = 'active', started_on = now(),
        retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
      WHERE j.name = ${queue}::text AND j.id = ANY (ARRAY(SELECT id FROM next))
      RETURNING j.id, j.data->>'operation_id' AS operation_id, j.retry_count, j.retry_limit, j.created_on
    ), claimed AS (
      UPDATE operations o SET status = 'running', attempts = o.attempts + 1, lease_until = now() + make_interval(secs => ${leaseS}::int),
        updated_at = ${new Date()}
      WHERE o.id = ANY (ARRAY(SELECT operation_id FROM fetched)) AND o.status IN ('queued', 'running')
      RETURNING o.*
    )
    SELECT f.id AS job_id, f.operation_id AS job_operation_id, f.retry_count AS job_retry_count, f.retry_limit AS job_retry_limit,
           f.created_on AS job_created_on, ${loaded} AS job_loaded, c.*
    FROM fetched f LEFT JOIN claimed c ON c.id = f.operation_id`.execute(db);
  return r.rows.map(({ job_id, job_operation_id, job_retry_count, job_retry_limit, job_created_on, job_loaded, ...op }) => {
    const read = op.id === null ? undefined : reads.get(op.type);
    return {
      id: job_id,
      operationId: job_operation_id,
      retryCount: job_retry_count,
      retryLimit: job_retry_limit,
      operation: op.id === null ? null : op,
      loaded: read ? read.revive(job_loaded) : undefined,
      createdOn: job_created_on,
    };
  });
}
