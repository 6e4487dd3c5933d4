// The operations queue on pg-boss 10. Jobs are inserted through the caller's transaction (pg-boss
// takes an `executeSql` wrapper per send), so an operation row and its job commit together or
// not at all. The pg-boss schema and queues are created by migration 0002.
import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { OperationQueue } from '../core/context.ts';
import type { Db } from '../core/types.ts';
import { JOB_SCHEMA } from '../db/names.ts';
import type { OperationJobRow } from '../db/queries/jobs.ts';

export const OPERATIONS_QUEUE = 'operations';
/** Where pg-boss moves an operation job whose retries are spent (also after a lost worker). */
export const OPERATIONS_FAILED_QUEUE = 'operations-failed';
export const MAINTENANCE_QUEUE = 'maintenance';

export interface JobSettings {
  retryLimit: number;
  retryDelayS: number;
  timeoutS: number;
}

/** pg-boss's database adapter over a Kysely handle (a transaction, or the pool). */
export function executorOf(db: Db) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const res = await db.executeQuery(CompiledQuery.raw(text, values));
      return { rows: res.rows as unknown[] };
    },
  };
}

export function createJobQueue(db: Db, settings: JobSettings): OperationQueue {
  // Never started: used only to build and send jobs through the caller's transaction.
  const boss = new PgBoss({ db: executorOf(db), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false });
  const jobOf = (operationId: string): OperationJobRow => ({
    queue: OPERATIONS_QUEUE,
    data: { operation_id: operationId },
    retryLimit: settings.retryLimit,
    retryDelayS: settings.retryDelayS,
    retryBackoff: true,
    expireInS: settings.timeoutS,
    deadLetter: OPERATIONS_FAILED_QUEUE,
  });
  return {
    async enqueueOperation(trx, operationId) {
      const job = jobOf(operationId);
      await boss.send(job.queue, job.data, {
        db: executorOf(trx),
        retryLimit: job.retryLimit,
        retryDelay: job.retryDelayS,
        retryBackoff: job.retryBackoff,
        expireInSeconds: job.expireInS,
        deadLetter: job.deadLetter,
      } as PgBoss.SendOptions);
    },
    enqueueRow: jobOf,
  };
}

/** The sandbox's queue: nothing is ever run. */
export const noopQueue: OperationQueue = {
  async enqueueOperation() {},
};
