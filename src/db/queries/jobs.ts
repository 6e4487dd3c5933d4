import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import { JOB_SCHEMA } from '../migrations/0002_servers.ts';

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
 * Unstarted jobs per queue, for metrics at scrape time. Reads only the partial index of unstarted
 * jobs (pg-boss's job_i5: state < active), under a statement timeout of its own, so a scrape stays
 * cheap however many finished jobs the table keeps.
 */
export async function queueStats(db: Db, timeoutMs: number): Promise<QueueStat[]> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(trx);
    const { rows } = await sql<{ name: string; queued: string; scheduled: string; oldest_s: string | null }>`
      SELECT name,
             count(*) FILTER (WHERE start_after <= now()) AS queued,
             count(*) FILTER (WHERE start_after > now()) AS scheduled,
             EXTRACT(EPOCH FROM now() - min(start_after) FILTER (WHERE start_after <= now())) AS oldest_s
        FROM ${sql.table(`${JOB_SCHEMA}.job`)}
       WHERE state < 'active'
       GROUP BY name`.execute(trx);
    return rows.map((r) => ({ queue: r.name, queued: Number(r.queued), scheduled: Number(r.scheduled), oldestS: r.oldest_s === null ? null : Number(r.oldest_s) }));
  });
}
