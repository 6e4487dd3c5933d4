// The worker: runs queued operations (operation-slots.ts), finishes those whose retries ran out
// (dead-letters.ts), queues again the operations of workers that died — their lease lapsed
// (lost-operations.ts) — and cleans expired idempotency keys and old events (maintenance.ts);
// beside them, the notification sender, the webhook sender, and the billing pass and the payment
// sweep on timers. Any number of workers may run against one database; pg-boss hands each job to
// one of them (SKIP LOCKED).
//
// A database fault never ends it: every loop fetches, runs and settles its jobs itself with every
// promise handled (job-loops.ts). While the database is unavailable the worker pauses at a gate
// (db-gate.ts) that probes with backoff, and resumes by itself.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Upstreams } from '../core/context.ts';
import type { RunnerMap } from '../core/operations/catalogue.ts';
import type { Db } from '../core/types.ts';
import type { EventRow, Operation } from '../db/schema.ts';
import { ping } from '../db/queries/health.ts';
import type { LookupFunction } from '../providers/webhooks/http.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import { type BillingTimer, startBillingTimer } from './billing-timer.ts';
import { createDbGate } from './db-gate.ts';
import { runDeadLetters } from './dead-letters.ts';
import { startJobLoops } from './job-loops.ts';
import { startLostOperationSweep } from './lost-operations.ts';
import { startDnsPusher } from './dns-pusher.ts';
import { startMaintenance } from './maintenance.ts';
import { startNotificationSender } from './notification-sender.ts';
import { runOperationSlots } from './operation-slots.ts';
import { startContactSync } from './registrar-contacts.ts';
import { startRegistrarPoll } from './registrar-poll.ts';
import { startPaymentSweeper } from './payment-sweeper.ts';
import { createJobQueue } from './queue.ts';
import { type WebhookSenderConfig, startWebhookSender } from './webhook-sender.ts';

/**
 * The process's services (runtime.ts servicesFor, spread in): without a registrar nothing is billed,
 * without payments nothing is swept, without DNS nothing is pushed; `webhooks` defaults to HTTP(S).
 */
export interface WorkerDeps extends Upstreams {
  db: Db;
  /** The runner of each operation type (src/core/families.ts RUNNERS); default: the registered ones. */
  runners?: RunnerMap;
  config: Pick<Config, 'workerConcurrency' | 'workerPollMs' | 'jobMaintenanceS' | 'operationLeaseS' | 'jobRetryLimit' | 'jobRetryDelayS' | 'jobTimeoutS'
    | 'smtpUrl' | 'smtpFrom' | 'mailMaxAttempts' | 'mailRetryDelayS'> & WebhookSenderConfig
    & Partial<Pick<Config, 'billingIntervalS' | 'suspendGraceDays' | 'domainRenewDays' | 'providerTimeoutMs' | 'paymentSweepIntervalS' | 'eventRetentionDays'>>;
  logger: Logger;
  /** Where the webhook sender counts its deliveries (the process's telemetry). */
  metrics?: Metrics;
  /** Tests: the resolver of the webhook sender's HTTP transport. */
  webhookLookup?: LookupFunction;
  /** The body of a webhook delivery (src/http/v2/events/presenters.ts renderV2Event): the HTTP layer's to shape, the worker's to send. */
  renderEvent: (event: EventRow) => string;
}

export interface Worker {
  stop(): Promise<void>;
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { db, logger } = deps;
  const gate = createDbGate({ probe: () => ping(db), logger });
  const w = await startJobLoops(db, gate, logger, deps.config.jobMaintenanceS);

  // Started below, with the queue it needs; an operation that ends before then has no pass to start.
  let billing: BillingTimer | null = null;
  const exec = {
    db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, runners: deps.runners, leaseS: deps.config.operationLeaseS,
    onFinished: (op: Operation) => billing?.afterOperation(op),
  };
  const loops: Promise<void>[] = [];
  loops.push(runOperationSlots(w, exec, deps.config));
  loops.push(runDeadLetters(w, exec));
  const maintenance = await startMaintenance(w, db, deps.config);
  loops.push(maintenance.loop);

  const jobs = createJobQueue(db, { retryLimit: deps.config.jobRetryLimit, retryDelayS: deps.config.jobRetryDelayS, timeoutS: deps.config.jobTimeoutS });
  const sweep = startLostOperationSweep(db, jobs, gate, logger, deps.config);
  const notifications = startNotificationSender(db, logger, deps.config);
  const webhooks = startWebhookSender({ db, logger, metrics: deps.metrics, config: deps.config, transport: deps.webhooks, lookup: deps.webhookLookup, render: deps.renderEvent });
  const dnsPusher = deps.dns ? startDnsPusher({ db, dns: deps.dns, logger, metrics: deps.metrics }) : null;
  billing = startBillingTimer({ ...deps, jobs, isOpen: () => gate.open, noteFailure: (e) => gate.noteFailure(e) });
  const paymentSweeper = startPaymentSweeper({ ...deps, jobs, isOpen: () => gate.open, noteFailure: (e) => gate.noteFailure(e) });
  const registrarPoll = startRegistrarPoll(db, deps.registrar, logger);
  const contactSync = startContactSync(db, deps.registrar, logger);

  logger.info({ concurrency: deps.config.workerConcurrency, component: 'worker' }, 'worker started');
  return {
    async stop() {
      w.halt();
      sweep.stop();
      registrarPoll?.stop();
      await contactSync?.stop();
      await billing?.stop();
      await paymentSweeper?.stop();
      await notifications?.stop();
      await webhooks.stop();
      await dnsPusher?.stop();
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
