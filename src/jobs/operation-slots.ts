// The operation slots: WORKER_CONCURRENCY operations run at once (their provider calls). One
// statement fetches as many jobs as there are free slots (rather than one fetch per slot and job),
// claims their operations and reads what their runners need (fetchAndClaimOperations); each job
// runs in a free slot, and the next fetch goes as soon as one frees.
//
// Completions are batched twice over. Operations completed while one commit is on its way are
// committed together in the next, and their jobs with them (no complete of their own); a run gives
// its slot back as soon as its provider work is done and only its commit remains, so the slots
// never wait on a commit. Jobs whose operation another commit settled are completed together too
// (one round trip for many). A worker that dies before settling leaves the job active; it runs
// again and finds its operation finished. An operation cut off by an outage runs again once the
// database is back, without spending one of its retries: the outage is not the operation's fault.
// Nor is a node this worker's compute driver cannot serve (providers/compute/platform.ts): the job
// is given back, unspent, for a worker that can, and the operation waits queued — for at most
// JOB_TIMEOUT_S from its first refusal; then it fails, refunded. Nor is a run that must wait on its
// upstream longer than it may hold a slot (half JOB_TIMEOUT_S: a transfer the losing registrar
// leaves pending for days): its job is put back to be fetched after the wait (OperationWaiting),
// unspent, and its operation stays running under a lease that covers the wait.
import type { Config } from '../config.ts';
import { type ExecuteDeps, claimReads, executeOperation, failOperation } from '../core/operations/execute.ts';
import { OperationWaiting, type RunResult } from '../core/operations/runner.ts';
import { type FetchedOperationJob, fetchAndClaimOperations } from '../db/queries/operation-fetch.ts';
import { type GiveBack, deferOperationJob, giveBackOperationJob } from '../db/queries/operation-give-back.ts';
import { releaseUnbuiltMachine } from '../db/queries/machine-reservation.ts';
import type { Operation } from '../db/schema.ts';
import { WrongPlatformError } from '../providers/errors.ts';
import type { JobLoops } from './job-loops.ts';
import { batchJobCompletions } from './operation-completions.ts';
import { OPERATIONS_QUEUE } from './queue.ts';

/** An operation's detail while it waits for a worker whose compute driver serves its node. */
const WAITING_DETAIL = 'Waiting for a worker that can reach its platform';

/** An operation's detail when it failed because no worker could reach its platform in time. */
export const unservableDetail = (limitS: number) => `No worker could reach its platform within ${limitS} s; the operation failed and anything charged for it was refunded`;

/** How often the operations fetch starts from the head of the queue rather than where the last one did. */
const FROM_HEAD_EVERY_MS = 1_000;

/**
 * Runs operations with `exec` (its completions batched here) until the worker stops; then waits
 * for the runs in hand and flushes their settlements.
 */
export async function runOperationSlots(
  w: JobLoops, exec: Omit<ExecuteDeps, 'complete'>, config: Pick<Config, 'workerConcurrency' | 'workerPollMs' | 'operationLeaseS' | 'jobTimeoutS'>,
): Promise<void> {
  const { logger } = w;
  // A run may hold its slot for half the job's timeout while it waits on its upstream.
  const base = { ...exec, holdMs: config.jobTimeoutS * 500 };
  const { db } = base;
  const completed = batcher((ids) => w.settle('completing operation jobs', () => w.boss.complete(OPERATIONS_QUEUE, ids)));
  const completions = batchJobCompletions(db, OPERATIONS_QUEUE);
  const slotReleases = new Map<string, () => void>();
  /** The jobs a completion settled with its operation (batchJobCompletions). */
  const settledJobs = new Set<string>();
  /** A run's completion: its slot freed at once, its job completed with the operation when it can be. */
  const completeFor = (jobId: string) => async (op: Operation, result: RunResult) => {
    slotReleases.get(op.id)?.();
    if (await completions(op, result, jobId)) settledJobs.add(jobId);
  };

  /**
   * No worker took an operation that this one refused for JOB_TIMEOUT_S: it fails, with its refund
   * and clean-up (failOperation), rather than wait for ever while the customer has paid.
   */
  const failUnservable = async (jobId: string, id: string, neverRun: boolean) => {
    logger.error({ component: 'worker', operation_id: id, limit_s: config.jobTimeoutS }, 'no worker could run an operation within JOB_TIMEOUT_S: failed and refunded');
    const failed = await w.settle('failing an operation no worker can run', async () => {
      // The clean-up of failOperation is the platform's, which refuses this node; a machine no
      // worker ever began (every claim given back, this one its first) is only a reservation,
      // released first so that the failure, once seen, has nothing left behind.
      if (neverRun) await releaseUnbuiltMachine(db, id);
      await failOperation(exec, id, unservableDetail(config.jobTimeoutS));
    });
    if (failed) await w.settle('completing an operation job', () => w.boss.complete(OPERATIONS_QUEUE, jobId));
  };

  /** A fetched job: its operation claimed with it (null: finished already), what its runner read for it (Runner.claimRead). */
  const runOperation = async (job: FetchedOperationJob) => {
    const id = job.operationId;
    const last = job.retryCount >= job.retryLimit;
    const execDeps = { ...base, complete: completeFor(job.id) };
    for (let attempt = 0; ; attempt++) {
      try {
        // After an outage the claim is made again (the batch's may predate a lease that lapsed),
        // and the run reads afresh what it needs.
        await executeOperation(execDeps, id, last, attempt === 0 ? job.operation : undefined, attempt === 0 ? job.loaded : undefined);
        if (!settledJobs.delete(job.id)) completed.add(job.id);
        return;
      } catch (err) {
        if (w.gate.noteFailure(err)) {
          // Stopping now: the lease lapses and another worker runs it again.
          if (!w.stopping) await w.gate.ready();
          if (w.stopping) return;
          continue;
        }
        if (err instanceof OperationWaiting) {
          logger.debug({ component: 'worker', operation_id: id, after_s: err.afterS }, 'operation waits on its upstream; its job is put back until then');
          await w.settle('putting an operation job back until its wait ends', async () => {
            await deferOperationJob(db, OPERATIONS_QUEUE, job.id, id, err.detail, err.afterS, config.jobTimeoutS);
          });
          return;
        }
        if (err instanceof WrongPlatformError) {
          // A misconfigured worker (a rolling deploy's): said loudly, and the job left for a worker that can.
          logger.error({ component: 'worker', operation_id: id, node: err.node, compute_driver: err.driver }, err.message);
          let outcome = 'gone' as GiveBack;
          await w.settle('giving an operation job back', async () => {
            outcome = await giveBackOperationJob(db, OPERATIONS_QUEUE, job.id, id, err.message, WAITING_DETAIL, config.jobTimeoutS);
          });
          if (outcome === 'expired') await failUnservable(job.id, id, job.operation?.attempts === 1);
          return;
        }
        // A retry is reported (log line, metric) by executeOperation itself.
        logger.debug({ err, operation_id: id, attempt: job.retryCount + 1 }, 'operation attempt failed; will retry');
        await w.settle('failing an operation job', () => w.boss.fail(OPERATIONS_QUEUE, job.id, err as object));
        return;
      }
    }
  };

  // The queue's own backstop (JOB_TIMEOUT_S) also frees the slot: the job is expired and retried
  // by pg-boss; the stuck run carries on harmlessly in the background (its promise is handled).
  const withinTimeout = async (work: Promise<void>, what: string) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => { timer = setTimeout(() => resolve('expired'), config.jobTimeoutS * 1000); });
    const outcome = await Promise.race([work, expired]);
    clearTimeout(timer);
    if (outcome === 'expired') logger.error({ component: 'worker', job: what }, 'a job ran past JOB_TIMEOUT_S; its slot is freed and the queue retries it');
  };

  const concurrency = config.workerConcurrency;
  const reads = claimReads(exec.runners);
  // Runs in their provider work (slots), and every run not yet settled (some only awaiting their
  // commit: at most twice the slots more, so a slow database cannot pile runs up).
  const slots = new Set<object>();
  const runs = new Set<Promise<void>>();
  let freed: (() => void) | null = null;
  const wake = () => {
    const f = freed;
    freed = null;
    f?.();
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
      const jobs = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, free, config.operationLeaseS, reads, fromHead ? undefined : from);
      if (jobs.length > 0) from = new Date(Math.min(...jobs.map((j) => j.createdOn.getTime())));
      return jobs;
    } catch (err) {
      if (!w.gate.noteFailure(err)) logger.error({ err, component: 'worker', queue: OPERATIONS_QUEUE }, 'fetching jobs failed');
      return [];
    }
  };
  while (!w.stopping) {
    await w.gate.ready();
    if (w.stopping) break;
    const free = Math.min(concurrency - slots.size, concurrency * 3 - runs.size);
    if (free <= 0) {
      await new Promise<void>((resolve) => { freed = resolve; });
      continue;
    }
    const jobs = await fetchBatch(free);
    if (jobs.length === 0) {
      // Idle: wait for the poll interval, or less if a running job frees its slot first.
      if (runs.size === 0) await w.nap(config.workerPollMs);
      else await Promise.race([w.nap(config.workerPollMs), new Promise<void>((resolve) => { freed = resolve; })]);
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
