// Lost workers. A running operation carries a lease its worker renews; a worker killed mid-run
// stops renewing, and once the lease has passed the operation is queued again as a new job, in
// the same transaction that releases it. The dead worker's own job would also come back, but only
// after JOB_TIMEOUT_S; a second run is harmless (claims and finishing are idempotent, provider
// calls carry the operation id), so recovery need not wait for it. A job a worker fetched but never
// claimed (the fetch's answer was lost to a dropped connection) is recovered the same way. Every
// worker sweeps; the lease update and the job's cancel are atomic, so each lost operation is queued
// once whatever the number of workers. Jobs are this module's business: the core knows leases only.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { OperationQueue } from '../core/context.ts';
import type { Db } from '../core/types.ts';
import { cancelUnclaimedJobs, takeExpiredLeases } from '../db/queries/operations.ts';
import { inTransaction } from '../db/transaction.ts';
import type { DbGate } from './db-gate.ts';

/** How often a worker looks for lost operations: well within the lease, so recovery takes about one lease. */
export function sweepIntervalS(config: Pick<Config, 'jobMaintenanceS' | 'operationLeaseS'>): number {
  return Math.max(1, Math.min(config.jobMaintenanceS, Math.floor(config.operationLeaseS / 3)));
}

/** Queues again, each once, the operations whose lease lapsed or whose fetched job was never claimed; their ids. */
export async function requeueAbandonedOperations(db: Db, jobs: OperationQueue, leaseS: number): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const ids = [...await takeExpiredLeases(trx), ...await cancelUnclaimedJobs(trx, leaseS)];
    for (const id of ids) await jobs.enqueueOperation(trx, id);
    return ids;
  });
}

export function startLostOperationSweep(db: Db, jobs: OperationQueue, gate: DbGate, logger: Logger, config: Pick<Config, 'jobMaintenanceS' | 'operationLeaseS'>): { stop(): void } {
  const sweep = setInterval(() => {
    if (!gate.open) return;
    requeueAbandonedOperations(db, jobs, config.operationLeaseS).then(
      (ids) => { if (ids.length) logger.warn({ operations: ids, component: 'worker' }, 'lost operations queued again (a worker or request stopped, or a fetch was lost)'); },
      (err: unknown) => { if (!gate.noteFailure(err)) logger.error({ err, component: 'worker' }, 'looking for lost operations failed'); },
    );
  }, sweepIntervalS(config) * 1000);
  return { stop: () => clearInterval(sweep) };
}
