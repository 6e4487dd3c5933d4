// The worker: runs queued operations, finishes those whose retries ran out (dead letters), queues
// again the operations of workers that died (their lease lapsed), cleans expired idempotency
// keys, and runs the billing pass and the payment sweep on timers. Any number of workers may run against one database; pg-boss hands each job to one of them
// (SKIP LOCKED).
//
// A database fault never ends it. pg-boss 10's own work() loop settles each job with a complete()
// or fail() whose promise nobody awaits, so a database that drops at that moment is an unhandled
// rejection; the loops here fetch, run and settle jobs themselves, with every promise handled.
// While the database is unavailable the worker pauses at a gate (db-gate.ts) that probes with
// backoff, and resumes by itself. An operation cut off by an outage runs again once the database
// is back, without spending one of its retries: the outage is not the operation's fault.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { batchCompletions, claimReads, executeOperation, failOperation } from '../core/operations/execute.ts';
import type { Db } from '../core/types.ts';
import { ping } from '../db/queries/health.ts';
import { deleteExpiredIdempotencyKeys } from '../db/queries/idempotency.ts';
import { sweepPanel } from '../core/panel/sweep.ts';
import { type FetchedOperationJob, fetchAndClaimOperations } from '../db/queries/operation-fetch.ts';
import { findOperation } from '../db/queries/operations.ts';
import type { Operation } from '../db/schema.ts';
import type { RunResult } from '../core/operations/runner.ts';
import { JOB_SCHEMA } from '../db/names.ts';
import type { ComputeProvider } from '../providers/compute/types.ts';
import type { HostingPanel } from '../providers/hosting/types.ts';
import type { Registrar } from '../providers/registrar/types.ts';
import { requeueAbandonedOperations } from '../core/operations/recover.ts';
import { pruneEvents } from '../core/events/retention.ts';
import { createDbGate } from './db-gate.ts';
import { MAINTENANCE_QUEUE, OPERATIONS_FAILED_QUEUE, OPERATIONS_QUEUE, createJobQueue, executorOf } from './queue.ts';
import { startNotificationSender } from './notification-sender.ts';
import { type BillingTimer, startBillingTimer } from './billing-timer.ts';
import { startPaymentSweeper } from './payment-sweeper.ts';
import type { PaymentProvider } from '../providers/payments/types.ts';
import { type WebhookSenderConfig, startWebhookSender } from './webhook-sender.ts';
import type { LookupFunction } from '../providers/webhooks/http.ts';
import type { WebhookTransport } from '../providers/webhooks/types.ts';
import type { Metrics } from '../telemetry/metrics.ts';

export interface WorkerDeps {
  db: Db;
  compute: ComputeProvider;
  hosting: HostingPanel;
  registrar?: Registrar;
  /** PAYMENTS' provider: the payment sweep asks it about payments nobody came back for (none: no sweep). */
  payments?: PaymentProvider;
  config: Pick<Config, 'workerConcurrency' | 'jobMaintenanceS' | 'operationLeaseS' | 'jobRetryLimit' | 'jobRetryDelayS' | 'jobTimeoutS'
    | 'smtpUrl' | 'smtpFrom' | 'mailMaxAttempts' | 'mailRetryDelayS'> & WebhookSenderConfig
    & Partial<Pick<Config, 'billingIntervalS' | 'suspendGraceDays' | 'domainRenewDays' | 'providerTimeoutMs' | 'paymentSweepIntervalS' | 'eventRetentionDays'>>;
  logger: Logger;
  /** Where the webhook sender counts its deliveries (the process's telemetry). */
  metrics?: Metrics;
  /** Tests: the webhook sender's transport, or the resolver of the HTTP one. */
  webhookTransport?: WebhookTransport;
  webhookLookup?: LookupFunction;
}

export interface Worker {
  stop(): Promise<void>;
}

interface OperationJob {
  operation_id: string;
}

type Job<T> = PgBoss.JobWithMetadata<T>;

/** How long an idle slot waits before asking the queue again. */
const POLL_MS = { operations: 500, deadLetters: 2_000, maintenance: 5_000 };
/** How often the operations fetch starts from the head of the queue rather than where the last one did. */
const FROM_HEAD_EVERY_MS = 1_000;
/** The maintenance job runs at most once per this many seconds, whatever the number of workers. */
const MAINTENANCE_EVERY_S = 3_600;

/** How often a worker looks for lost operations: well within the lease, so recovery takes about one lease. */
export function sweepIntervalS(config: Pick<Config, 'jobMaintenanceS' | 'operationLeaseS'>): number {
  return Math.max(1, Math.min(config.jobMaintenanceS, Math.floor(config.operationLeaseS / 3)));
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { db, logger } = deps;
  let stopping = false;
  const gate = createDbGate({ probe: () => ping(db), logger });
  const plain = executorOf(db);
  // Every queue statement passes here, so a failure pg-boss swallows (its fetch does) still pauses us.
  const watched = {
    async executeSql(text: string, values?: unknown[]) {
      try {
        return await plain.executeSql(text, values);
      } catch (e) {
        gate.noteFailure(e);
        throw e;
      }
    },
  };
  const boss = new PgBoss({
    db: watched,
    schema: JOB_SCHEMA,
    migrate: false,
    supervise: true,
    // No cron: its internal loop has the unawaited settle of work(); maintenance is a throttled send.
    schedule: false,
    maintenanceIntervalSeconds: deps.config.jobMaintenanceS,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (err) => {
    if (!gate.noteFailure(err)) logger.error({ err, component: 'worker' }, 'job queue error');
  });
  await boss.start();
  // Databases set up by earlier versions hold an hourly cron entry nothing reads any more.
  await boss.unschedule(MAINTENANCE_QUEUE).catch(() => undefined);

  // Pauses that stop() cuts short.
  const naps = new Set<() => void>();
  const nap = (ms: number) => new Promise<void>((resolve) => {
    const done = () => { clearTimeout(timer); naps.delete(done); resolve(); };
    const timer = setTimeout(done, ms);
    naps.add(done);
  });

  /** Runs `fn` until it succeeds, waiting out database outages; other failures are logged. Never rejects. */
  const settle = async (what: string, fn: () => Promise<unknown>): Promise<boolean> => {
    for (;;) {
      try {
        await fn();
        return true;
      } catch (err) {
        if (gate.noteFailure(err) && !stopping) {
          await gate.ready();
          continue;
        }
        // Stopping during an outage: the job stays active and comes back after JOB_TIMEOUT_S, or
        // sooner through the operation's lease.
        if (!stopping) logger.error({ err, component: 'worker' }, `${what} failed`);
        return false;
      }
    }
  };

  const fetch = async <T>(queue: string, batchSize: number): Promise<Job<T>[]> => {
    try {
      return await boss.fetch<T>(queue, { batchSize, includeMetadata: true });
    } catch (err) {
      if (!gate.noteFailure(err)) logger.error({ err, component: 'worker', queue }, 'fetching jobs failed');
      return [];
    }
  };

  /** One slot: fetch, run, settle, and straight on to the next job while there is one. */
  const loop = async <T>(queue: string, batchSize: number, pollMs: number, handle: (jobs: Job<T>[]) => Promise<void>) => {
    while (!stopping) {
      await gate.ready();
      if (stopping) break;
      const jobs = await fetch<T>(queue, batchSize);
      if (jobs.length === 0) {
        await nap(pollMs);
        continue;
      }
      await handle(jobs).catch((err: unknown) => logger.error({ err, component: 'worker', queue }, 'job handler failed'));
    }
  };

  // Completed jobs are settled together: every completion that lands while one statement is on
  // its way goes in the next (one round trip for many jobs rather than one each). A worker that
  // dies before settling leaves the job active; it runs again and finds its operation finished.
  const completed = batcher((ids) => settle('completing operation jobs', () => boss.complete(OPERATIONS_QUEUE, ids)));

  // Operations completed while one commit is on its way are committed together in the next, and
  // their jobs with them (no complete of their own). A run gives its slot back as soon as its
  // provider work is done and only its commit remains, so the slots (WORKER_CONCURRENCY: provider
  // calls at once) never wait on a commit.
  const completions = batchCompletions(db, undefined, OPERATIONS_QUEUE);
  const slotReleases = new Map<string, () => void>();
  /** The job each running operation was fetched with, and the jobs its completion settled. */
  const jobOfRun = new Map<string, string>();
  const settledJobs = new Set<string>();
  const complete = async (op: Operation, result: RunResult) => {
    slotReleases.get(op.id)?.();
    const jobId = jobOfRun.get(op.id);
    if ((await completions(op, result, jobId)) && jobId !== undefined) settledJobs.add(jobId);
  };
  // Started below, with the queue it needs; an operation that ends before then has no pass to start.
  let billing: BillingTimer | null = null;
  const execDeps = {
    db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, leaseS: deps.config.operationLeaseS, complete,
    onFinished: (op: Operation) => billing?.afterOperation(op),
  };
  /** A fetched job: its operation claimed with it (null: finished already), what its runner read for it (Runner.claimRead). */
  const runOperation = async (job: FetchedOperationJob) => {
    const id = job.operationId;
    const last = job.retryCount >= job.retryLimit;
    jobOfRun.set(id, job.id);
    for (let attempt = 0; ; attempt++) {
      try {
        // After an outage the claim is made again (the batch's may predate a lease that lapsed),
        // and the run reads afresh what it needs.
        await executeOperation(execDeps, id, last, attempt === 0 ? job.operation : undefined, attempt === 0 ? job.loaded : undefined);
        if (!settledJobs.delete(job.id)) completed.add(job.id);
        return;
      } catch (err) {
        if (gate.noteFailure(err)) {
          // Stopping now: the lease lapses and another worker runs it again.
          if (!stopping) await gate.ready();
          if (stopping) return;
          continue;
        }
        // A retry is reported (log line, metric) by executeOperation itself.
        logger.debug({ err, operation_id: id, attempt: job.retryCount + 1 }, 'operation attempt failed; will retry');
        await settle('failing an operation job', () => boss.fail(OPERATIONS_QUEUE, job.id, err as object));
        return;
      }
    }
  };

  // The queue's own backstop (JOB_TIMEOUT_S) also frees the slot: the job is expired and retried
  // by pg-boss; the stuck run carries on harmlessly in the background (its promise is handled).
  const withinTimeout = async (work: Promise<void>, what: string) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => { timer = setTimeout(() => resolve('expired'), deps.config.jobTimeoutS * 1000); });
    const outcome = await Promise.race([work, expired]);
    clearTimeout(timer);
    if (outcome === 'expired') logger.error({ component: 'worker', job: what }, 'a job ran past JOB_TIMEOUT_S; its slot is freed and the queue retries it');
  };

  const loops: Promise<void>[] = [];
  loops.push(dispatchOperations());

  // A job lands here when its retries are spent, including when workers died mid-run.
  loops.push(loop<OperationJob>(OPERATIONS_FAILED_QUEUE, 10, POLL_MS.deadLetters, async (jobs) => {
    for (const job of jobs) {
      const id = job.data.operation_id;
      const failed = await settle('failing an operation whose retries ran out', async () => {
        const op = await findOperation(db, id);
        const reason = op?.last_error
          ? `Gave up after ${op.attempts} attempts: ${op.last_error}`
          : 'The operation did not finish in time and its retries ran out';
        await failOperation(execDeps, id, reason);
      });
      await settle('settling a dead-letter job', () => (failed ? boss.complete(OPERATIONS_FAILED_QUEUE, job.id) : boss.fail(OPERATIONS_FAILED_QUEUE, job.id)));
    }
  }));

  loops.push(loop(MAINTENANCE_QUEUE, 1, POLL_MS.maintenance, async ([job]) => {
    const ok = await settle('removing expired idempotency keys', async () => {
      const removed = await deleteExpiredIdempotencyKeys(db);
      logger.info({ removed, component: 'worker' }, 'expired idempotency keys removed');
    }) && await settle('removing events past retention', async () => {
      const removed = await pruneEvents(db, deps.config.eventRetentionDays);
      logger.info({ removed, component: 'worker' }, 'events past retention removed');
    }) && await settle('removing ended panel sessions and links', async () => {
      const removed = await sweepPanel(db, new Date());
      logger.info({ ...removed, component: 'worker' }, 'ended panel sessions and links removed');
    });
    await settle('settling the maintenance job', () => (ok ? boss.complete(MAINTENANCE_QUEUE, job!.id) : boss.fail(MAINTENANCE_QUEUE, job!.id)));
  }));

  // One maintenance job per hour across all workers (a throttled send is unique per time slot).
  const planMaintenance = async () => {
    if (!gate.open) return;
    await boss.sendThrottled(MAINTENANCE_QUEUE, {}, {}, MAINTENANCE_EVERY_S, 'idempotency-cleanup').catch((err: unknown) => {
      if (!gate.noteFailure(err)) logger.error({ err, component: 'worker' }, 'planning maintenance failed');
    });
  };
  await planMaintenance();
  const planner = setInterval(() => void planMaintenance(), deps.config.jobMaintenanceS * 1000);

  // Every worker looks; the lease update is atomic, so each lost operation is queued once.
  const jobs = createJobQueue(db, { retryLimit: deps.config.jobRetryLimit, retryDelayS: deps.config.jobRetryDelayS, timeoutS: deps.config.jobTimeoutS });
  const sweep = setInterval(() => {
    if (!gate.open) return;
    requeueAbandonedOperations(db, jobs, deps.config.operationLeaseS).then(
      (ids) => { if (ids.length) logger.warn({ operations: ids, component: 'worker' }, 'lost operations queued again (a worker or request stopped, or a fetch was lost)'); },
      (err: unknown) => { if (!gate.noteFailure(err)) logger.error({ err, component: 'worker' }, 'looking for lost operations failed'); },
    );
  }, sweepIntervalS(deps.config) * 1000);

  const notifications = startNotificationSender(db, logger, deps.config);
  const webhooks = startWebhookSender({ db, logger, metrics: deps.metrics, config: deps.config, transport: deps.webhookTransport, lookup: deps.webhookLookup });
  billing = startBillingTimer({ ...deps, jobs, isOpen: () => gate.open, noteFailure: (e) => gate.noteFailure(e) });
  const paymentSweeper = startPaymentSweeper({ ...deps, jobs, isOpen: () => gate.open, noteFailure: (e) => gate.noteFailure(e) });

  /**
   * The operation slots: one statement fetches as many jobs as there are free slots (rather than
   * one fetch per slot and job), claims their operations and reads what their runners need
   * (fetchAndClaimOperations); each job runs in a free slot, and the next fetch goes as soon as one frees.
   */
  async function dispatchOperations(): Promise<void> {
    const concurrency = deps.config.workerConcurrency;
    const reads = claimReads();
    // Runs in their provider work (slots), and every run not yet settled (some only awaiting their
    // commit: at most twice the slots more, so a slow database cannot pile runs up).
    const slots = new Set<object>();
    const runs = new Set<Promise<void>>();
    let freed: (() => void) | null = null;
    const wake = () => {
      const w = freed;
      freed = null;
      w?.();
    };
    // Where the last fetch's jobs began in the queue: the next starts there (rather than stepping
    // over every job taken since the last VACUUM), and at least once a second from the head, for
    // the jobs that sort before it (retries keep their place).
    let from: Date | undefined;
    let fromHeadAt = 0;
    const fetchBatch = async (free: number): Promise<FetchedOperationJob[]> => {
      try {
        const fromHead = from === undefined || Date.now() - fromHeadAt >= FROM_HEAD_EVERY_MS;
        if (fromHead) fromHeadAt = Date.now();
        const jobs = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, free, deps.config.operationLeaseS, reads, fromHead ? undefined : from);
        if (jobs.length > 0) from = new Date(Math.min(...jobs.map((j) => j.createdOn.getTime())));
        return jobs;
      } catch (err) {
        if (!gate.noteFailure(err)) logger.error({ err, component: 'worker', queue: OPERATIONS_QUEUE }, 'fetching jobs failed');
        return [];
      }
    };
    while (!stopping) {
      await gate.ready();
      if (stopping) break;
      const free = Math.min(concurrency - slots.size, concurrency * 3 - runs.size);
      if (free <= 0) {
        await new Promise<void>((resolve) => { freed = resolve; });
        continue;
      }
      const jobs = await fetchBatch(free);
      if (jobs.length === 0) {
        // Idle: wait for the poll interval, or less if a running job frees its slot first.
        if (runs.size === 0) await nap(POLL_MS.operations);
        else await Promise.race([nap(POLL_MS.operations), new Promise<void>((resolve) => { freed = resolve; })]);
        continue;
      }
      for (const job of jobs) {
        const id = job.operationId;
        const slot = {};
        slots.add(slot);
        const release = () => {
          if (slots.delete(slot)) wake();
        };
        slotReleases.set(id, release);
        const run: Promise<void> = withinTimeout(runOperation(job), job.id)
          .catch((err: unknown) => logger.error({ err, component: 'worker', queue: OPERATIONS_QUEUE }, 'job handler failed'))
          .finally(() => {
            if (slotReleases.get(id) === release) slotReleases.delete(id);
            if (jobOfRun.get(id) === job.id) jobOfRun.delete(id);
            release();
            runs.delete(run);
            wake();
          });
        runs.add(run);
      }
    }
    await Promise.all(runs);
    await completions.flush();
    await completed.flush();
  }

  logger.info({ concurrency: deps.config.workerConcurrency, component: 'worker' }, 'worker started');
  return {
    async stop() {
      stopping = true;
      clearInterval(sweep);
      await billing?.stop();
      await paymentSweeper?.stop();
      await notifications?.stop();
      await webhooks.stop();
      clearInterval(planner);
      for (const wake of [...naps]) wake();
      gate.close();
      // Running jobs finish (up to 30 s) so a graceful stop loses nothing.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(loops), new Promise((resolve) => { timer = setTimeout(resolve, 30_000); })]);
      clearTimeout(timer);
      await boss.stop({ graceful: true, wait: true, timeout: 1_000, close: false });
    },
  };
}

/** Collects ids and hands them to `send` in batches: one send at a time, the next with all that came meanwhile. */
function batcher(send: (ids: string[]) => Promise<unknown>) {
  let pending: string[] = [];
  let inFlight: Promise<void> | null = null;
  const drain = async () => {
    while (pending.length > 0) {
      const ids = pending;
      pending = [];
      await send(ids);
    }
    inFlight = null;
  };
  return {
    add(id: string) {
      pending.push(id);
      inFlight ??= drain();
    },
    async flush() {
      while (inFlight) await inFlight;
    },
  };
}
