// Idempotency-Key for a batch whose items each commit in a transaction of their own (bulk domain
// orders). The record is claimed as a placeholder (idempotentSteps) holding a lease and the items
// finished so far; each item's result is written in the same transaction as the item's own work
// (its charge, its domain), so an item is recorded if and only if it happened. The whole answer
// replaces the placeholder at the end. A duplicate arriving meanwhile waits for it, as with any key.
// If the request dies midway its lease lapses (OPERATION_LEASE_S); a retry with the same key and
// body then takes the batch over and runs only the items not recorded — none is done twice.
import { recordBatchItem, releaseBatchLease, renewBatchLease, saveIdempotentResponse, takeOverBatch } from '../../db/queries/idempotency.ts';
import type { Ctx } from '../context.ts';
import { DEFAULT_LEASE_S } from '../operations/lease.ts';
import type { Db } from '../types.ts';
import { type Outcome, type Replayable, idempotentSteps } from './service.ts';

export interface Batch {
  /** Results of items a dead earlier run of this request finished, by index. */
  readonly done: ReadonlyMap<number, unknown>;
  /** Records item `index`'s result in `trx`, the item's own transaction. */
  record(trx: Db, index: number, result: unknown): Promise<void>;
  /** Stores the whole answer (or, with no key, does nothing) and ends the lease. */
  finish(outcome: Outcome, body: unknown): Promise<void>;
  /** The request gives up (an unexpected failure): a retry may take over at once. */
  abandon(): Promise<void>;
}

function itemsOf(items: Record<string, unknown>): Map<number, unknown> {
  return new Map(Object.entries(items).map(([i, r]) => [Number(i), r]));
}

const UNKEYED: Batch = {
  done: new Map(),
  async record() {},
  async finish() {},
  async abandon() {},
};

/** Claims the batch's key (if any): the batch to run, or the stored answer of an earlier run. */
export async function startBatch(
  ctx: Ctx, key: string | undefined, fingerprint: string,
): Promise<{ batch: Batch } | { stored: Replayable }> {
  if (key === undefined) return { batch: UNKEYED };
  const leaseS = ctx.operationLeaseS ?? DEFAULT_LEASE_S;
  const placeholder = { lease_until: new Date(Date.now() + leaseS * 1000).toISOString(), items: {} };
  const step = await idempotentSteps(ctx, key, fingerprint, async () => new Map<number, unknown>(), {
    placeholder,
    // The sandbox's records are its own, in a transaction nobody else sees: nothing to take over.
    takeOver: ctx.sandbox ? undefined : async (own) => {
      const items = await takeOverBatch(ctx.db, ctx.accountId, own, fingerprint, leaseS);
      return items === undefined ? undefined : itemsOf(items);
    },
  });
  if ('stored' in step) return step;
  const own = step.key;
  const timer = ctx.sandbox ? null : setInterval(() => void renewBatchLease(ctx.db, ctx.accountId, own, leaseS).catch(() => undefined), (leaseS * 1000) / 3);
  timer?.unref();
  const stop = () => { if (timer) clearInterval(timer); };
  return {
    batch: {
      done: step.claimed,
      record: (trx, index, result) => recordBatchItem(trx, ctx.accountId, own, index, result),
      async finish(outcome, body) {
        stop();
        await saveIdempotentResponse(ctx.db, ctx.accountId, own, outcome, body);
      },
      async abandon() {
        stop();
        await releaseBatchLease(ctx.db, ctx.accountId, own).catch(() => undefined);
      },
    },
  };
}
