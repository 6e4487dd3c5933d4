// Runs one operation for the worker. The worker delivers an operation at least once, so this must
// be safe to run twice: claiming refuses finished operations, finishing happens under a row lock and
// only once, and runners pass stable tokens to the provider.
import type { ClaimedRead } from '../../db/queries/operation-fetch.ts';
import { type CompletionChange, claimOperation, completeOperations, finishOperation, lockOperation, noteOperationError, setOperationProgress } from '../../db/queries/operations.ts';
import { isDatabaseUnavailable } from '../../db/failures.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Operation } from '../../db/schema.ts';
import { ProviderError } from '../../providers/compute/types.ts';
import { WrongPlatformError } from '../../providers/errors.ts';
import { afterCommit, type OperationEvent, type OperationOutcome, pendingEvents } from '../events.ts';
import type { Db } from '../types.ts';
import { DEFAULT_LEASE_S, holdLease } from './lease.ts';
import { type RunnerMap, registeredRunners } from './catalogue.ts';
import { type BatchedChange, OperationWaiting, type OperationOf, type RunResult, type RunnerServices, applyBatched, completionChanges } from './runner.ts';

export interface ExecuteDeps extends RunnerServices {
  db: Db;
  /**
   * The runner of each operation type (src/core/families.ts RUNNERS, handed in by whoever starts the
   * worker, so this folder imports no family). Default: the types registered so far.
   */
  runners?: RunnerMap;
  now?: () => Date;
  /** Seconds a run's lease lasts without renewal (OPERATION_LEASE_S). Default 30. */
  leaseS?: number;
  /** RunContext.holdMs: how long a run may wait on its upstream before giving its job back. Default: no limit. */
  holdMs?: number;
  /** How a run's completion is committed. Default: a transaction of its own (completeAlone). */
  complete?: Completer;
  /**
   * Told of an operation once this run's completion, or its final failure, has committed (what
   * follows an operation's end: the billing pass after a suspension). Must not throw.
   */
  onFinished?: (op: Operation) => void;
}

/**
 * Commits a run's completion: the operation completed and the runner's result applied, atomically,
 * unless the operation was finished meanwhile (a twin run, a failure recorded) — then nothing.
 * Rejects when that commit fails; the run is then retried like any other failed attempt.
 */
export type Completer = (op: Operation, result: RunResult) => Promise<void>;

const runnersOf = (deps: Pick<ExecuteDeps, 'runners'>): RunnerMap => deps.runners ?? registeredRunners();

export const PROGRESS_INTERVAL_MS = 250;

/** The detail of an operation the operator cancelled. */
export const CANCELLED_DETAIL = 'Cancelled by the operator; anything charged for it was refunded';

/** Thrown at a run's next step once the operator asked it to stop. */
class OperationCancelled extends Error {
  constructor() {
    super('cancelled by the operator');
  }
}

/** What the logs and metrics hear about an operation. */
function outcome(op: Operation, kind: OperationOutcome, extra: Partial<OperationEvent> = {}): OperationEvent {
  return { kind: 'operation', outcome: kind, operationId: op.id, type: op.type, accountId: op.account_id, resource: `${op.resource_type}/${op.resource_id}`, ...extra };
}

function secondsSince(from: Date, to: Date): number {
  return Math.max(0, (to.getTime() - from.getTime()) / 1000);
}

/** A failure in words the customer can act on (the operation's `detail`). */
export function describeFailure(e: unknown): string {
  if (e instanceof ProviderError) {
    return e.code === 'CAPACITY_UNAVAILABLE' ? `No capacity: ${e.message}` : `The provider failed: ${e.message}`;
  }
  return 'An internal error stopped the operation';
}

/**
 * Runs operation `id`. Throws (so the worker runs it again later) when the failure is retryable and
 * this was not the last attempt; otherwise records the failure and compensates.
 */
export async function executeOperation(deps: ExecuteDeps, id: string, lastAttempt: boolean, claimed?: Operation | null, loaded?: unknown): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const leaseS = deps.leaseS ?? DEFAULT_LEASE_S;
  // `claimed`: the caller claimed it already (claimOperations, for a worker's batch); null: it was finished.
  const op = claimed === undefined ? await claimOperation(deps.db, id, leaseS) : claimed;
  if (!op) return;
  // Renewed well before it lapses, so only a dead (or frozen) worker lets it pass.
  const lease = holdLease(deps.db, id, leaseS);
  try {
    await runClaimed(deps, op, lastAttempt, now, claimed === undefined ? undefined : loaded);
  } finally {
    lease.release();
  }
}

const completedEvent = (op: Operation, now: () => Date) => outcome(op, 'completed', { durationS: secondsSince(op.created_at, now()), attempt: op.attempts });

/** One transaction per completion. */
export function completeAlone(db: Db, now: () => Date = () => new Date()): Completer {
  return (op, result) => inTransaction(db, async (trx) => {
    // The update locks the row and refuses a finished one in the same statement: a twin run that
    // finished first (or a failure recorded meanwhile) leaves nothing for this one to apply.
    if (!(await finishOperation(trx, op.id, 'completed', result.detail))) return;
    await result.apply?.(trx);
    if (result.batched) await applyBatched(trx, [result.batched]);
    afterCommit(trx, completedEvent(op, now));
  });
}

/**
 * Completions that arrive while one commit is on its way go together in the next: one
 * transaction, one statement completing every operation, then each result's changes (its batched
 * change in one call per kind for the whole batch: RunResult.batched) — a worker's
 * completions cost a round trip or two each instead of four, and one WAL flush per batch. Should a
 * batch fail (a result's changes refused, a deadlock, the database away), each of its completions
 * is tried on its own, so one bad result never fails the others. `flush()` waits for every
 * completion handed in so far.
 *
 * With `alongside`, each batch's statement also makes the changes it returns for the batch's
 * operations (what the caller settles with them: the worker's src/jobs completes their jobs), and
 * a completion resolves true when it was committed so; false when it went alone, without them.
 */
export function batchCompletions(db: Db, now: () => Date = () => new Date(), alongside?: (ops: Operation[]) => CompletionChange[]):
  ((op: Operation, result: RunResult) => Promise<boolean>) & { flush(): Promise<void> } {
  const alone = completeAlone(db, now);
  interface Pending { op: Operation; result: RunResult; resolve(withAlongside: boolean): void; reject(e: unknown): void }
  let waiting: Pending[] = [];
  let inFlight: Promise<void> | null = null;
  const alongsideOf = (batch: Pending[]): CompletionChange[] => alongside?.(batch.map((p) => p.op)) ?? [];
  /** Whether the batch was committed by one statement or transaction of its own (with `alongside`'s changes). */
  const commit = async (batch: Pending[]): Promise<boolean> => {
    // Changes that can be part of the completing statement: one statement, no transaction to open.
    const changes = completionChanges(batch.map((p) => ({ operationId: p.op.id, result: p.result })));
    if (changes) {
      const completed = await completeOperations(db, batch.map((p) => ({ id: p.op.id, detail: p.result.detail })), [...changes, ...alongsideOf(batch)]);
      for (const p of batch) if (completed.has(p.op.id)) afterCommit(db, completedEvent(p.op, now));
      return true;
    }
    if (batch.length === 1) {
      await alone(batch[0]!.op, batch[0]!.result);
      return false;
    }
    await inTransaction(db, async (trx) => {
      const completed = await completeOperations(trx, batch.map((p) => ({ id: p.op.id, detail: p.result.detail })), alongsideOf(batch));
      const changes: BatchedChange[] = [];
      for (const p of batch) {
        if (!completed.has(p.op.id)) continue;
        await p.result.apply?.(trx);
        if (p.result.batched) changes.push(p.result.batched);
        afterCommit(trx, completedEvent(p.op, now));
      }
      await applyBatched(trx, changes);
    });
    return true;
  };
  const drain = async () => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        const together = await commit(batch);
        for (const p of batch) p.resolve(together && alongside !== undefined);
      } catch (e) {
        if (batch.length === 1) {
          batch[0]!.reject(e);
          continue;
        }
        await Promise.all(batch.map((p) => alone(p.op, p.result).then(() => p.resolve(false), p.reject)));
      }
    }
    inFlight = null;
  };
  const complete = (op: Operation, result: RunResult) => new Promise<boolean>((resolve, reject) => {
    waiting.push({ op, result, resolve, reject });
    inFlight ??= drain();
  });
  return Object.assign(complete, {
    async flush() {
      while (inFlight) await inFlight;
    },
  });
}

/** The claiming statement's reads of the runners that have one (Runner.claimRead), by operation type. */
export function claimReads(runners: RunnerMap = registeredRunners()): Map<string, ClaimedRead<unknown>> {
  const reads = new Map<string, ClaimedRead<unknown>>();
  for (const [type, runner] of runners) if (runner.claimRead) reads.set(type, runner.claimRead);
  return reads;
}

async function runClaimed(deps: ExecuteDeps, op: Operation, lastAttempt: boolean, now: () => Date, loaded: unknown): Promise<void> {
  const id = op.id;
  const runner = runnersOf(deps).get(op.type);
  if (!runner) {
    await failOperation(deps, id, `Unknown operation type ${op.type}`);
    return;
  }
  // Progress is for people polling: one write per PROGRESS_INTERVAL_MS is plenty, and a fast
  // provider reporting every step would otherwise cost a round trip each. The first is written
  // after one interval too: an operation done sooner goes from its claim straight to completed.
  let lastWrite = Date.now();
  // A step is where a run stops when the operator cancelled it (admin cancel of a running operation).
  const progress = async (pct: number, detail: string) => {
    if (Date.now() - lastWrite < PROGRESS_INTERVAL_MS) return;
    lastWrite = Date.now();
    if (await setOperationProgress(deps.db, id, Math.max(0, Math.min(99, Math.round(pct))), detail)) throw new OperationCancelled();
  };
  try {
    if (op.cancel_requested_at) throw new OperationCancelled();
    // The one place a stored operation meets its runner: its params are what its start wrote for its type.
    const result = await runner.run({ db: deps.db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, progress, now, loaded, holdMs: deps.holdMs }, op as OperationOf<never>);
    await (deps.complete ?? completeAlone(deps.db, now))(op, result);
    deps.onFinished?.(op);
  } catch (e) {
    // The database away (its connections refused or cut): not the operation's fault, whichever
    // attempt this is. The worker waits for it and runs the operation again. Nor is a node this
    // worker's driver cannot serve (platform.ts): the worker gives the job back, unspent, for one
    // that can; this one must never fail it (and refund), even on its last attempt. Nor is a run
    // waiting on its upstream longer than it may hold its slot (OperationWaiting): its job is given
    // back to be fetched again later.
    if (isDatabaseUnavailable(e) || e instanceof WrongPlatformError || e instanceof OperationWaiting) throw e;
    if (e instanceof OperationCancelled) {
      await failOperation(deps, id, CANCELLED_DETAIL);
      return;
    }
    const reason = describeFailure(e);
    const retryable = !(e instanceof ProviderError) || e.retryable;
    const error = e instanceof Error ? e.message : String(e);
    if (retryable && !lastAttempt) {
      await noteOperationError(deps.db, id, error, `Attempt ${op.attempts} failed (${reason}); retrying`).catch(() => {});
      afterCommit(deps.db, outcome(op, 'retried', { attempt: op.attempts, reason: error }));
      throw e;
    }
    await failOperation(deps, id, reason, error);
  }
}

/**
 * Marks an unfinished operation failed and undoes what the customer paid for, atomically; then
 * lets the runner clean up on the platform.
 */
export async function failOperation(deps: ExecuteDeps, id: string, reason: string, lastError?: string): Promise<void> {
  const clock = deps.now ?? (() => new Date());
  const failed = await inTransaction(deps.db, async (trx) => {
    const op: Operation | undefined = await lockOperation(trx, id);
    if (!op || (op.status !== 'queued' && op.status !== 'running')) return undefined;
    const compensate = runnersOf(deps).get(op.type)?.compensate;
    const before = pendingEvents(trx).length;
    await compensate?.(trx, op as OperationOf<never>, reason, clock());
    // What the compensation gave back: the refunds it wrote in this transaction.
    const refundCents = pendingEvents(trx).slice(before).reduce((sum, e) => (e.kind === 'billing' && e.type === 'refund' ? sum + e.cents : sum), 0);
    await finishOperation(trx, id, 'failed', reason, lastError);
    afterCommit(trx, outcome(op, 'failed', { durationS: secondsSince(op.created_at, clock()), attempt: op.attempts, reason }));
    if (compensate) afterCommit(trx, outcome(op, 'compensated', { refundCents }));
    return op;
  });
  if (failed) deps.onFinished?.(failed);
  const cleanUp = failed && runnersOf(deps).get(failed.type)?.afterFailure;
  if (failed && cleanUp) {
    const rc = { db: deps.db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, progress: async () => {}, now: clock };
    await cleanUp(rc, failed as OperationOf<never>).catch(() => undefined);
  }
}
