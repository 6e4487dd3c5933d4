// Runs one operation for the worker. The job queue delivers at least once, so this must be safe
// to run twice: claiming refuses finished operations, finishing happens under a row lock and
// only once, and runners pass stable tokens to the provider.
import { claimOperation, finishOperation, lockOperation, noteOperationError, setOperationProgress } from '../../db/queries/operations.ts';
import { afterCommit, inTransaction, pendingEvents } from '../../db/transaction.ts';
import type { Operation } from '../../db/schema.ts';
import { type ComputeProvider, ProviderError } from '../../providers/compute/types.ts';
import type { HostingPanel } from '../../providers/hosting/types.ts';
import type { Registrar } from '../../providers/registrar/types.ts';
import type { OperationEvent, OperationOutcome } from '../events.ts';
import type { Db } from '../types.ts';
import { DEFAULT_LEASE_S, holdLease } from './lease.ts';
import { runnerFor } from './registry.ts';

export interface ExecuteDeps {
  db: Db;
  compute: ComputeProvider;
  hosting: HostingPanel;
  registrar?: Registrar;
  now?: () => Date;
  /** Seconds a run's lease lasts without renewal (OPERATION_LEASE_S). Default 30. */
  leaseS?: number;
}

export const PROGRESS_INTERVAL_MS = 250;

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
 * Runs operation `id`. Throws (so the queue retries later) when the failure is retryable and
 * this was not the last attempt; otherwise records the failure and compensates.
 */
export async function executeOperation(deps: ExecuteDeps, id: string, lastAttempt: boolean): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const leaseS = deps.leaseS ?? DEFAULT_LEASE_S;
  const op = await claimOperation(deps.db, id, leaseS);
  if (!op) return;
  // Renewed well before it lapses, so only a dead (or frozen) worker lets it pass.
  const lease = holdLease(deps.db, id, leaseS);
  try {
    await runClaimed(deps, op, lastAttempt, now);
  } finally {
    lease.release();
  }
}

async function runClaimed(deps: ExecuteDeps, op: Operation, lastAttempt: boolean, now: () => Date): Promise<void> {
  const id = op.id;
  const runner = runnerFor(op.type);
  if (!runner) {
    await failOperation(deps, id, `Unknown operation type ${op.type}`);
    return;
  }
  // Progress is for people polling: one write per PROGRESS_INTERVAL_MS is plenty, and a fast
  // provider reporting every step would otherwise cost a round trip each. The first is written
  // after one interval too: an operation done sooner goes from its claim straight to completed.
  let lastWrite = Date.now();
  const progress = async (pct: number, detail: string) => {
    if (Date.now() - lastWrite < PROGRESS_INTERVAL_MS) return;
    lastWrite = Date.now();
    await setOperationProgress(deps.db, id, Math.max(0, Math.min(99, Math.round(pct))), detail);
  };
  try {
    const result = await runner.run({ db: deps.db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, progress, now }, op);
    await inTransaction(deps.db, async (trx) => {
      const locked = await lockOperation(trx, id);
      if (!locked || (locked.status !== 'queued' && locked.status !== 'running')) return;
      await result.apply?.(trx);
      await finishOperation(trx, id, 'completed', result.detail);
      afterCommit(trx, outcome(op, 'completed', { durationS: secondsSince(op.created_at, now()), attempt: op.attempts }));
    });
  } catch (e) {
    const reason = describeFailure(e);
    const retryable = !(e instanceof ProviderError) || e.retryable;
    if (retryable && !lastAttempt) {
      const error = e instanceof Error ? e.message : String(e);
      await noteOperationError(deps.db, id, error, `Attempt ${op.attempts} failed (${reason}); retrying`).catch(() => {});
      afterCommit(deps.db, outcome(op, 'retried', { attempt: op.attempts, reason: error }));
      throw e;
    }
    await failOperation(deps, id, reason);
  }
}

/**
 * Marks an unfinished operation failed and undoes what the customer paid for, atomically; then
 * lets the runner clean up on the platform.
 */
export async function failOperation(deps: ExecuteDeps, id: string, reason: string): Promise<void> {
  const clock = deps.now ?? (() => new Date());
  const failed = await inTransaction(deps.db, async (trx) => {
    const op: Operation | undefined = await lockOperation(trx, id);
    if (!op || (op.status !== 'queued' && op.status !== 'running')) return undefined;
    const compensate = runnerFor(op.type)?.compensate;
    const before = pendingEvents(trx).length;
    await compensate?.(trx, op, reason, clock());
    // What the compensation gave back: the refunds it wrote in this transaction.
    const refundCents = pendingEvents(trx).slice(before).reduce((sum, e) => (e.kind === 'billing' && e.type === 'refund' ? sum + e.cents : sum), 0);
    await finishOperation(trx, id, 'failed', reason);
    afterCommit(trx, outcome(op, 'failed', { durationS: secondsSince(op.created_at, clock()), attempt: op.attempts, reason }));
    if (compensate) afterCommit(trx, outcome(op, 'compensated', { refundCents }));
    return op;
  });
  const cleanUp = failed && runnerFor(failed.type)?.afterFailure;
  if (failed && cleanUp) {
    const rc = { db: deps.db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, progress: async () => {}, now: clock };
    await cleanUp(rc, failed).catch(() => undefined);
  }
}
