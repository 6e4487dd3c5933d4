// The worker: runs queued operations (operation-slots.ts), finishes those whose retries ran out
// (dead-letters.ts), queues again the operations of workers that died — their lease lapsed
// (lost-operations.ts) — and cleans expired idempotency keys (maintenance.ts); beside them, the
// notification sender and the billing timer. Any number of workers may run against one database;
// pg-boss hands each job to one of them (SKIP LOCKED).
//
// A database fault never ends it: every loop fetches, runs and settles its jobs itself with every
// promise handled (job-loops.ts). While the database is unavailable the worker pauses at a gate
// (db-gate.ts) that probes with backoff, and resumes by itself.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../core/types.ts';
import { ping } from '../db/queries/health.ts';
import type { ComputeProvider } from '../providers/compute/types.ts';
import type { HostingPanel } from '../providers/hosting/types.ts';
import type { Registrar } from '../providers/registrar/types.ts';
import { startBillingTimer } from './billing-timer.ts';
import { createDbGate } from './db-gate.ts';
import { runDeadLetters } from './dead-letters.ts';
import { startJobLoops } from './job-loops.ts';
import { startLostOperationSweep } from './lost-operations.ts';
import { startMaintenance } from './maintenance.ts';
import { startNotificationSender } from './notification-sender.ts';
import { runOperationSlots } from './operation-slots.ts';
import { createJobQueue } from './queue.ts';

export interface WorkerDeps {
  db: Db;
  compute: ComputeProvider;
  hosting: HostingPanel;
  registrar?: Registrar;
  config: Pick<Config, 'workerConcurrency' | 'jobMaintenanceS' | 'operationLeaseS' | 'jobRetryLimit' | 'jobRetryDelayS' | 'jobTimeoutS'
    | 'smtpUrl' | 'smtpFrom' | 'mailMaxAttempts' | 'mailRetryDelayS'>
    & Partial<Pick<Config, 'billingIntervalS' | 'suspendGraceDays' | 'domainRenewDays' | 'providerTimeoutMs'>>;
  logger: Logger;
}

export interface Worker {
  stop(): Promise<void>;
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { db, logger } = deps;
  const gate = createDbGate({ probe: () => ping(db), logger });
  const w = await startJobLoops(db, gate, logger, deps.config.jobMaintenanceS);

  const loops: Promise<void>[] = [];
  loops.push(runOperationSlots(w, deps));
  loops.push(runDeadLetters(w, { db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, leaseS: deps.config.operationLeaseS }));
  const maintenance = await startMaintenance(w, db, deps.config.jobMaintenanceS);
  loops.push(maintenance.loop);

  const jobs = createJobQueue(db, { retryLimit: deps.config.jobRetryLimit, retryDelayS: deps.config.jobRetryDelayS, timeoutS: deps.config.jobTimeoutS });
  const sweep = startLostOperationSweep(db, jobs, gate, logger, deps.config);
  const notifications = startNotificationSender(db, logger, deps.config);
  const billing = startBillingTimer({ ...deps, jobs, isOpen: () => gate.open, noteFailure: (e) => gate.noteFailure(e) });

  logger.info({ concurrency: deps.config.workerConcurrency, component: 'worker' }, 'worker started');
  return {
    async stop() {
      w.halt();
      sweep.stop();
      await billing?.stop();
      await notifications?.stop();
      maintenance.stop();
      w.wakeAll();
      gate.close();
      // Running jobs finish (up to 30 s) so a graceful stop loses nothing.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(loops), new Promise((resolve) => { timer = setTimeout(resolve, 30_000); })]);
      clearTimeout(timer);
      await w.boss.stop({ graceful: true, wait: true, timeout: 1_000, close: false });
    },
  };
}
