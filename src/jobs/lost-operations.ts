// Every worker looks for lost operations — those whose worker or request stopped renewing the
// lease, or whose fetched job was never started — and queues them again. The lease update is
// atomic, so each lost operation is queued once whatever the number of workers.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { OperationQueue } from '../core/context.ts';
import { requeueAbandonedOperations } from '../core/operations/recover.ts';
import type { Db } from '../core/types.ts';
import type { DbGate } from './db-gate.ts';

/** How often a worker looks for lost operations: well within the lease, so recovery takes about one lease. */
export function sweepIntervalS(config: Pick<Config, 'jobMaintenanceS' | 'operationLeaseS'>): number {
  return Math.max(1, Math.min(config.jobMaintenanceS, Math.floor(config.operationLeaseS / 3)));
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
