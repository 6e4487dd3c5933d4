// A job given back by a worker that must not run it (its compute driver cannot serve the node:
// providers/compute/platform.ts), as though it had never been fetched: the job waits its retry
// delay and is fetched again by any worker, without spending one of its retries, and its operation
// is queued again as it was before the claim, noting why it waits. The job remembers when it was
// first given back (`refused_since` in its data): once that is longer ago than the caller's limit
// (JOB_TIMEOUT_S), no worker has taken it, and it is not given back again. A job whose run waits on
// its upstream (a long transfer) is put back likewise, to be fetched once its wait ends (deferOperationJob).
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import { JOB_SCHEMA } from '../names.ts';

/** given: back in the queue; expired: refused for longer than the limit (the caller fails it); gone: no longer this worker's. */
export type GiveBack = 'given' | 'expired' | 'gone';

/**
 * Gives job `jobId` of `queue` back (active → retry after its own retry delay; started_on cleared,
 * so the next fetch does not count a retry: operation-fetch.ts) and puts its operation back to
 * queued (its claim's attempt taken back, its lease dropped), in one statement — unless the job
 * was first given back more than `limitS` seconds ago. Nothing changes when the job is no longer
 * this worker's (not active); the operation's lease then lapses as any.
 */
export async function giveBackOperationJob(db: Db, queue: string, jobId: string, operationId: string, error: string, detail: string, limitS: number): Promise<GiveBack> {
  const job = sql.table(`${JOB_SCHEMA}.job`);
  const r = await sql<{ held: number; given: number }>`
    WITH held AS (
      SELECT id, coalesce((data->>'refused_since')::timestamptz, now()) AS since FROM ${job}
      WHERE name = ${queue}::text AND id = ${jobId}::uuid AND state = 'active'
      FOR UPDATE
    ), given AS (
      UPDATE ${job} j SET state = 'retry', started_on = NULL, start_after = now() + greatest(j.retry_delay, 1) * interval '1s',
        data = j.data || jsonb_build_object('refused_since', held.since)
      FROM held
      WHERE j.name = ${queue}::text AND j.id = held.id AND held.since > now() - make_interval(secs => ${limitS}::int)
      RETURNING j.id
    ), queued AS (
      UPDATE operations SET status = 'queued', attempts = greatest(attempts - 1, 0), lease_until = NULL, last_error = ${error}, detail = ${detail},
        updated_at = now()
      WHERE id = ${operationId} AND status = 'running' AND EXISTS (SELECT 1 FROM given)
      RETURNING id
    )
    SELECT (SELECT count(*) FROM held)::int AS held, (SELECT count(*) FROM given)::int AS given, (SELECT count(*) FROM queued)::int AS queued`.execute(db);
  const row = r.rows[0]!;
  return row.given > 0 ? 'given' : row.held > 0 ? 'expired' : 'gone';
}

/**
 * Puts job `jobId` of `queue` back to be fetched again in `afterS` seconds (active → retry,
 * started_on cleared: no retry spent; its place in the queue's order kept), for a run that waits on
 * its upstream longer than it may hold a slot (OperationWaiting). Its operation stays running, its
 * claim's attempt taken back, with `detail`, and a lease that covers the wait and `graceS` more: a
 * job lost meanwhile is recovered as a dead worker's (lost-operations.ts). The job is kept (pg-boss's
 * retention) at least a day past its next start. False: the job is no longer this worker's.
 */
export async function deferOperationJob(db: Db, queue: string, jobId: string, operationId: string, detail: string, afterS: number, graceS: number): Promise<boolean> {
  const job = sql.table(`${JOB_SCHEMA}.job`);
  const r = await sql<{ given: number }>`
    WITH given AS (
      UPDATE ${job} j SET state = 'retry', started_on = NULL, start_after = now() + make_interval(secs => ${afterS}::int),
        keep_until = greatest(j.keep_until, now() + make_interval(secs => ${afterS}::int) + interval '1 day')
      WHERE j.name = ${queue}::text AND j.id = ${jobId}::uuid AND j.state = 'active'
      RETURNING j.id
    ), held AS (
      UPDATE operations SET attempts = greatest(attempts - 1, 0), detail = ${detail}, updated_at = now(),
        lease_until = now() + make_interval(secs => ${afterS + graceS}::int)
      WHERE id = ${operationId} AND status = 'running' AND EXISTS (SELECT 1 FROM given)
      RETURNING id
    )
    SELECT (SELECT count(*) FROM given)::int AS given, (SELECT count(*) FROM held)::int AS held`.execute(db);
  return r.rows[0]!.given > 0;
}

/**
 * Makes the jobs put back by deferOperationJob for the running domain.transfer of `domainName`
 * due now (news of its transfer came: the registry's message queue), so that the approval or
 * rejection is acted on at once rather than after the wait. The number of jobs woken.
 */
export async function wakeWaitingTransfer(db: Db, queue: string, domainName: string): Promise<number> {
  const job = sql.table(`${JOB_SCHEMA}.job`);
  const r = await sql<{ id: string }>`
    UPDATE ${job} j SET start_after = now()
    WHERE j.name = ${queue}::text AND j.state = 'retry' AND j.start_after > now() AND j.data->>'operation_id' IN (
      SELECT o.id::text FROM operations o
      WHERE o.type = 'domain.transfer' AND o.status = 'running'
        AND o.resource_id::text IN (SELECT d.id::text FROM domains d WHERE d.name = lower(${domainName}) AND d.status = 'transfer_pending'))
    RETURNING j.id`.execute(db);
  return r.rows.length;
}
