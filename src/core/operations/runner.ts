// What a kind of operation does when the worker runs it. `run` talks to the provider (outside any
// transaction; it may run again after a lost worker, so every provider call carries a stable
// token) and returns the database changes to commit with the completion. `compensate` undoes the
// customer-visible effects when the operation finally fails (refund, release), in the same
// transaction that marks it failed.
import type { ClaimedRead } from '../../db/queries/operation-fetch.ts';
import type { CompletionChange } from '../../db/queries/operations.ts';
import type { Operation } from '../../db/schema.ts';
import type { Progress } from '../../providers/compute/types.ts';
import type { Upstreams } from '../context.ts';
import type { Db } from '../types.ts';

/** The upstreams a runner reaches (a registrar is absent in a worker wired without one; registrar runners fail then). */
export type RunnerServices = Pick<Upstreams, 'compute' | 'hosting' | 'registrar'>;

export interface RunContext extends RunnerServices {
  db: Db;
  progress: Progress;
  now: () => Date;
  /**
   * What the runner's `claimRead` read for this operation as a worker claimed it; undefined when it
   * was not read so (a run outside a worker's batch, or one retried after an outage).
   */
  loaded?: unknown;
  /**
   * How long a run may hold its worker's slot while it waits on the upstream (the worker's: half
   * JOB_TIMEOUT_S); a wait that would pass it ends the run with OperationWaiting. Undefined: no limit.
   */
  holdMs?: number;
}

/**
 * Thrown by a run that must wait on the upstream longer than it may hold its slot (RunContext.holdMs):
 * the worker gives the job back, unspent, to be fetched again after `afterS`, and the operation
 * stays running meanwhile with `detail`. Neither a failure nor an attempt.
 */
export class OperationWaiting extends Error {
  constructor(readonly afterS: number, readonly detail: string) {
    super(`waiting ${afterS} s: ${detail}`);
    this.name = 'OperationWaiting';
  }
}

export interface RunResult {
  /** The operation's final `detail`. */
  detail: string;
  apply?: (trx: Db) => Promise<void>;
  /** Changes applied together with those of other completions committed in the same transaction. */
  batched?: BatchedChange;
}

/**
 * Changes of one kind that completions committed together apply at once (one statement for the
 * batch rather than one per operation). `applyAll` gets the items of every completion of its
 * transaction that did complete, in any order.
 */
export interface BatchApplier<T> {
  applyAll(trx: Db, items: T[]): Promise<void>;
  /**
   * The same change made by the very statement that completes the operations (no transaction of
   * its own, no further round trip): it applies only the items of the operations it completed.
   */
  onCompletion?(items: { operationId: string; item: T }[]): CompletionChange;
}

export interface BatchedChange {
  readonly applier: BatchApplier<never>;
  readonly item: unknown;
}

/** A result's change as an item of `applier`'s batch. */
export function batched<T>(applier: BatchApplier<T>, item: T): BatchedChange {
  return { applier: applier as BatchApplier<never>, item };
}

/**
 * The changes of a batch of completions as parts of the statement that completes them; null when
 * one of them cannot be (a change of its own, `apply`, or an applier without `onCompletion`).
 */
export function completionChanges(results: { operationId: string; result: RunResult }[]): CompletionChange[] | null {
  const byApplier = new Map<BatchApplier<never>, { operationId: string; item: never }[]>();
  for (const { operationId, result } of results) {
    if (result.apply || (result.batched && !result.batched.applier.onCompletion)) return null;
    if (!result.batched) continue;
    const entry = { operationId, item: result.batched.item as never };
    const items = byApplier.get(result.batched.applier);
    if (items) items.push(entry);
    else byApplier.set(result.batched.applier, [entry]);
  }
  return [...byApplier].map(([applier, items]) => applier.onCompletion!(items));
}

/** Applies the batched changes of completed results: each applier once, with all of its items. */
export async function applyBatched(trx: Db, changes: BatchedChange[]): Promise<void> {
  const byApplier = new Map<BatchApplier<never>, unknown[]>();
  for (const c of changes) {
    const items = byApplier.get(c.applier);
    if (items) items.push(c.item);
    else byApplier.set(c.applier, [c.item]);
  }
  for (const [applier, items] of byApplier) await applier.applyAll(trx, items as never[]);
}

/** The params of an operation that needs none. */
export type NoParams = Record<string, never>;

/**
 * An operation whose params have the type its start wrote (the catalogue ties both to the
 * operation's type: catalogue.ts).
 */
export type OperationOf<P> = Operation & { params: P };

/** A runner of operations whose params are P (what the start of one writes, what its run reads). */
export interface Runner<P = NoParams> {
  /**
   * What a run of this type reads before its provider call, read by the statement with which a
   * worker fetches and claims its batch (no statement of its own); the run gets it as `rc.loaded`.
   */
  claimRead?: ClaimedRead<unknown>;
  run(rc: RunContext, op: OperationOf<P>): Promise<RunResult>;
  compensate?(trx: Db, op: OperationOf<P>, reason: string, now: Date): Promise<void>;
  /**
   * Platform clean-up after a final failure has been recorded (e.g. destroy a machine a create
   * built before it failed). Best effort, outside any transaction; its errors are ignored, since
   * the customer's side (refund, state) is already settled.
   */
  afterFailure?(rc: RunContext, op: OperationOf<P>): Promise<void>;
}
