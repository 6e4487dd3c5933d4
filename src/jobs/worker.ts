// The worker: runs queued operations, finishes those whose retries ran out (dead letters), queues
// again the operations of workers that died (their lease lapsed), and cleans expired idempotency
// keys. Any number of workers may run against one database; pg-boss hands each job to one of them
// (SKIP LOCKED).
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { executeOperation, failOperation } from '../core/operations/execute.ts';
import type { Db } from '../core/types.ts';
import { deleteExpiredIdempotencyKeys } from '../db/queries/idempotency.ts';
import { findOperation } from '../db/queries/operations.ts';
import { JOB_SCHEMA } from '../db/migrations/0002_servers.ts';
import type { ComputeProvider } from '../providers/compute/types.ts';
import { requeueAbandonedOperations } from '../core/operations/recover.ts';
import { MAINTENANCE_QUEUE, OPERATIONS_FAILED_QUEUE, OPERATIONS_QUEUE, createJobQueue, executorOf } from './queue.ts';

export interface WorkerDeps {
  db: Db;
  compute: ComputeProvider;
  config: Pick<Config, 'workerConcurrency' | 'jobMaintenanceS' | 'operationLeaseS' | 'jobRetryLimit' | 'jobRetryDelayS' | 'jobTimeoutS'>;
  logger: Logger;
}

export interface Worker {
  stop(): Promise<void>;
}

interface OperationJob {
  operation_id: string;
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { db, logger } = deps;
  const boss = new PgBoss({
    db: executorOf(db),
    schema: JOB_SCHEMA,
    migrate: false,
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds: deps.config.jobMaintenanceS,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (err) => logger.error({ err, component: 'worker' }, 'job queue error'));
  await boss.start();

  const execDeps = { db, compute: deps.compute, leaseS: deps.config.operationLeaseS };
  const jobs = createJobQueue(db, { retryLimit: deps.config.jobRetryLimit, retryDelayS: deps.config.jobRetryDelayS, timeoutS: deps.config.jobTimeoutS });
  // One subscription per slot; each asks for the next job as soon as it finishes one, so a busy
  // queue does not wait for the polling interval.
  for (let slot = 0; slot < deps.config.workerConcurrency; slot++) {
    const workerId: string = await boss.work<OperationJob>(OPERATIONS_QUEUE, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      if (!job) return;
      const last = job.retryCount >= job.retryLimit;
      try {
        await executeOperation(execDeps, job.data.operation_id, last);
      } catch (err) {
        // A retry is reported (log line, metric) by executeOperation itself.
        logger.debug({ err, operation_id: job.data.operation_id, attempt: job.retryCount + 1 }, 'operation attempt failed; will retry');
        throw err;
      } finally {
        setImmediate(() => boss.notifyWorker(workerId));
      }
    });
  }

  // A job lands here when its retries are spent, including when workers died mid-run.
  await boss.work<OperationJob>(OPERATIONS_FAILED_QUEUE, { batchSize: 10, pollingIntervalSeconds: 2 }, async (jobs) => {
    for (const job of jobs) {
      const op = await findOperation(db, job.data.operation_id);
      const reason = op?.last_error
        ? `Gave up after ${op.attempts} attempts: ${op.last_error}`
        : 'The operation did not finish in time and its retries ran out';
      await failOperation(execDeps, job.data.operation_id, reason);
    }
  });

  await boss.schedule(MAINTENANCE_QUEUE, '17 * * * *');
  await boss.work(MAINTENANCE_QUEUE, async () => {
    const removed = await deleteExpiredIdempotencyKeys(db);
    logger.info({ removed, component: 'worker' }, 'expired idempotency keys removed');
  });

  // Every worker looks; the lease update is atomic, so each lost operation is queued once.
  const sweep = setInterval(() => {
    requeueAbandonedOperations(db, jobs).then(
      (ids) => { if (ids.length) logger.warn({ operations: ids, component: 'worker' }, 'operations of a lost worker queued again'); },
      (err) => logger.error({ err, component: 'worker' }, 'looking for lost operations failed'),
    );
  }, deps.config.jobMaintenanceS * 1000);

  logger.info({ concurrency: deps.config.workerConcurrency, component: 'worker' }, 'worker started');
  return {
    async stop() {
      clearInterval(sweep);
      // Waits for running jobs to finish (up to 30 s) so a graceful stop loses nothing.
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}
