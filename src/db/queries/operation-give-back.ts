// A job given back by a worker that must not run it (its compute driver cannot serve the node:
// providers/compute/platform.ts), as though it had never been fetched: the job waits its retry
// delay and is fetched again by any worker, without spending one of its retries, and its operation
// is queued again as it was before the claim, noting why it waits.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import { JOB_SCHEMA } from '../names.ts';

/**
 * Gives job `jobId` of `queue` back (active → retry after its own retry delay; started_on cleared,
 * so the next fetch does not count a retry: operation-fetch.ts) and puts its operation back to
 * queued (its claim's attempt taken back, its lease dropped), in one statement. Nothing changes
 * when the job is no longer this worker's (not active); the operation's lease then lapses as any.
 */
export async function giveBackOperationJob(db: Db, queue: string, jobId: string, operationId: string, error: string, detail: string): Promise<void> {
  await sql`
    WITH job AS (
      UPDATE ${sql.table(`${JOB_SCHEMA}.job`)} SET state = 'retry', started_on = NULL, start_after = now() + greatest(retry_delay, 1) * interval '1s'
      WHERE name = ${queue}::text AND id = ${jobId}::uuid AND state = 'active'
      RETURNING id
    )
    UPDATE operations SET status = 'queued', attempts = greatest(attempts - 1, 0), lease_until = NULL, last_error = ${error}, detail = ${detail},
      updated_at = now()
    WHERE id = ${operationId} AND status = 'running' AND EXISTS (SELECT 1 FROM job)`.execute(db);
}
