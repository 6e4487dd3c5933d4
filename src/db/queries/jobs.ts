import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection.ts';
import { JOB_SCHEMA } from '../names.ts';
import type { CompletionChange } from './operations.ts';

/**
 * The job that queues an operation, as pg-boss 10 stores it. The queue (src/jobs/queue.ts) makes
 * it for a write that inserts the job in a statement of its own making (a billable create in one
 * statement: billable-create.ts); the core only passes it on, unread.
 */
export interface OperationJobRow {
  queue: string;
  data: Record<string, unknown>;
  retryLimit: number;
  retryDelayS: number;
  retryBackoff: boolean;
  expireInS: number;
  deadLetter: string;
}

/**
 * The INSERT of an operation's job row as pg-boss 10's `send` writes it (plans.js insertJob, with
 * no singleton, priority 0, starting now, no retention configured on the sender: the queue's, else
 * 14 days), for a statement that writes the job together with what it is for (a server create's
 * CTE). test/v2/servers-create-one-statement.test.ts compares the row with one `send` wrote, so
 * an upgrade of pg-boss that changes its rows fails there. Returns the job's id; no row when the queue does not exist.
 */
export function insertOperationJob(job: OperationJobRow): RawBuilder<{ id: string }> {
  const delay = job.retryBackoff ? Math.max(job.retryDelayS, 1) : job.retryDelayS;
  return sql<{ id: string }>`
    INSERT INTO ${sql.table(`${JOB_SCHEMA}.job`)} (id, name, data, priority, start_after, dead_letter, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
    SELECT gen_random_uuid(), q.name, ${JSON.stringify(job.data)}::jsonb, 0, now(), ${job.deadLetter}::text,
           ${job.expireInS}::int * interval '1s',
           now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
           ${job.retryLimit}::int, ${delay}::int, ${job.retryBackoff}::bool, q.policy
      FROM ${sql.table(`${JOB_SCHEMA}.queue`)} q
     WHERE q.name = ${job.queue}::text
    RETURNING id`;
}

/**
 * pg-boss 10's `complete` of jobs without output (plans.js completeJobs: active → completed) as a
 * change of the statement that completes their operations (completeOperations): the jobs settle
 * in the same commit, without a statement of their own. Every job given is completed, whether or
 * not its operation was (a twin run finished it first: as the job's own complete would). Compared
 * with pg-boss's own in test/jobs/job-completion.test.ts.
 */
export function operationJobsCompleted(queue: string, jobIds: string[]): CompletionChange {
  return (name) => sql`${sql.raw(name)} AS (
    UPDATE ${sql.table(`${JOB_SCHEMA}.job`)} SET completed_on = now(), state = 'completed', output = NULL
    WHERE name = ${queue}::text AND id = ANY(${jobIds}::uuid[]) AND state = 'active')`;
}

export interface QueueStat {
  queue: string;
  /** Jobs due now, waiting for a worker. */
  queued: number;
  /** Jobs waiting for a later start (retry backoff, safety nets). */
  scheduled: number;
  /** Seconds the oldest due job has waited; null when none is due. */
  oldestS: number | null;
}

/**
 * Unstarted jobs per queue — every queue, with 0 when none waits — for metrics at scrape time. Reads only the partial index of unstarted
 * jobs (pg-boss's job_i5: state < active), under a statement timeout of its own, so a scrape stays
 * cheap however many finished jobs the table keeps.
 */
export async function queueStats(db: Db, timeoutMs: number): Promise<QueueStat[]> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(trx);
    const { rows } = await sql<{ name: string; queued: string; scheduled: string; oldest_s: string | null }>`
      SELECT q.name,
             count(j.id) FILTER (WHERE j.start_after <= now()) AS queued,
             count(j.id) FILTER (WHERE j.start_after > now()) AS scheduled,
             EXTRACT(EPOCH FROM now() - min(j.start_after) FILTER (WHERE j.start_after <= now())) AS oldest_s
        FROM ${sql.table(`${JOB_SCHEMA}.queue`)} q
        LEFT JOIN ${sql.table(`${JOB_SCHEMA}.job`)} j ON j.name = q.name AND j.state < 'active'
       GROUP BY q.name`.execute(trx);
    return rows.map((r) => ({ queue: r.name, queued: Number(r.queued), scheduled: Number(r.scheduled), oldestS: r.oldest_s === null ? null : Number(r.oldest_s) }));
  });
}
