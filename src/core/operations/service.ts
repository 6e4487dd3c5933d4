// Operations: the durable record of long-running work. A service starts one inside its own
// transaction (row + queued job commit together); the worker runs it (execute.ts); the customer
// polls it. The unique index on unfinished operations per resource makes "one at a time per
// server" a database fact, not a read-then-write race.
import { findAccountOperation, findUnfinishedOperation, insertOperationUnlessBusy } from '../../db/queries/operations.ts';
import type { Operation } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Db, Scope } from '../types.ts';
import { type OperationType, type ParamsOf, entryOf, requireEntry } from './catalogue.ts';
import type { NoParams, OperationOf } from './runner.ts';
import { readSandboxOperationId, sandboxOperationId } from './sandbox-ids.ts';


/** An operation of type T to start (of any type, without T); its resource type is the catalogue's (catalogue.ts). */
export type StartOperation<T extends OperationType = OperationType> = T extends OperationType ? StartOf<T> : never;

type StartOf<T extends OperationType> = {
  type: T;
  resourceId: string;
  detail?: string;
  /**
   * false: the caller does the work itself, synchronously, and finishes the operation with
   * finishOperation (the row still stops a concurrent action on the resource). Default true.
   */
  enqueue?: boolean;
  /**
   * With enqueue false: the caller holds the operation's lease (holdLease) while it works, and
   * the row starts `running` under it. Should the caller's process die, the lease lapses and the
   * worker runs the operation's runner instead, within about one lease.
   */
  leaseS?: number;
} & (ParamsOf<T> extends NoParams ? { params?: NoParams } : {
  /** What the runner needs (verb arguments, the charge to refund if it fails). Never shown. */
  params: ParamsOf<T>;
});

/** The row values an operation start writes: its resource type from the catalogue. */
function rowOf<T extends OperationType>(start: StartOf<T>) {
  return { type: start.type, resource_type: requireEntry(start.type).resource, resource_id: start.resourceId, params: (start.params ?? {}) as Record<string, unknown> };
}

/**
 * The detail an operation shows for its state. Work starts `queued` with a "Queued …" detail, and
 * the runner writes its own progress text only at its first step: between being taken by a worker
 * and that step, a running operation would still say it is queued. It says "Starting …" instead
 * ("Queued for provisioning" → "Starting provisioning", "Queued: reboot" → "Starting: reboot").
 */
export function operationDetail(op: Pick<Operation, 'status' | 'detail'>): string {
  return op.status === 'running' ? op.detail.replace(/^Queued( for\b)?/, 'Starting') : op.detail;
}

/** 409 naming the operation in the way, so the client can poll it and try again once it is done. */
export function operationRunning(resourceId: string, running: Pick<Operation, 'id' | 'type'> | undefined): ApiError {
  return new ApiError('STATE_CONFLICT', running
    ? `Operation ${running.id} (${running.type}) is still running on ${resourceId}; wait for it to finish (GET /v2/operations/${running.id})`
    : `Another operation is still running on ${resourceId}; wait for it to finish`);
}

/**
 * Records a queued operation and enqueues its job, in `trx` (the caller's transaction). Another
 * unfinished operation on the resource is a 409 naming it. The refusal is read in `trx` itself:
 * the insert skips a conflicting row rather than failing, so the transaction stays usable. (It
 * used to fail, and the operation in the way was read through another pool connection while the
 * failed transaction still held its own: a burst of refusals larger than the pool held every
 * connection while each waited for one more, and the whole process stalled until the pool's
 * connect timeout.)
 */
export async function startOperation<T extends OperationType>(ctx: Ctx, trx: Db, start: StartOf<T>): Promise<OperationOf<ParamsOf<T>>> {
  const row = rowOf(start);
  const id = ctx.sandbox
    ? sandboxOperationId({ type: row.type, resourceType: row.resource_type, resourceId: row.resource_id, accountId: ctx.accountId, createdAt: ctx.now })
    : newId('op');
  const op = await insertOperationUnlessBusy(trx, { id, account_id: ctx.accountId, ...row, detail: start.detail ?? 'Queued' }, start.enqueue === false ? start.leaseS : undefined);
  if (!op) {
    // The statement waited for a concurrent insert to commit; this one (a new snapshot) sees it,
    // unless it has finished meanwhile.
    throw operationRunning(start.resourceId, await findUnfinishedOperation(trx, row.resource_type, row.resource_id));
  }
  if (start.enqueue !== false) await ctx.jobs.enqueueOperation(trx, op.id);
  // The params were written from start.params, of this very type.
  return op as OperationOf<ParamsOf<T>>;
}

/**
 * The queued operation row for a write that inserts it in a statement of its own making (a
 * billable create in one statement): the row insertOperationUnlessBusy would return, with a new id. Live
 * requests only (the sandbox's ids are its own).
 */
export function queuedOperation<T extends OperationType>(ctx: Pick<Ctx, 'accountId' | 'now'>, start: StartOf<T>): Operation {
  return {
    id: newId('op'), account_id: ctx.accountId, ...rowOf(start), status: 'queued',
    progress_pct: 0, detail: start.detail ?? 'Queued', attempts: 0, lease_until: null, last_error: null,
    created_at: ctx.now, updated_at: ctx.now, finished_at: null, cancel_requested_at: null,
  };
}

/** The caller's operation; another account's id is simply not found. */
export async function getOperation(ctx: Ctx, id: string): Promise<Operation> {
  const sandboxed = readSandboxOperationId(id);
  if (sandboxed) {
    // Sandbox work has no effect, so it is complete as soon as it is asked about.
    if (!ctx.sandbox || sandboxed.accountId !== ctx.accountId) throw notFound('Operation');
    return {
      id, account_id: ctx.accountId, type: sandboxed.type, status: 'completed',
      resource_type: sandboxed.resourceType, resource_id: sandboxed.resourceId,
      progress_pct: 100, detail: 'Completed (sandbox: nothing was changed)', params: {}, attempts: 0, lease_until: null, last_error: null,
      created_at: sandboxed.createdAt, updated_at: sandboxed.createdAt, finished_at: sandboxed.createdAt, cancel_requested_at: null,
    };
  }
  const op = await findAccountOperation(ctx.db, ctx.accountId, id);
  if (!op) throw notFound('Operation');
  return op;
}

/**
 * A key scoped to some areas reads only the operations of those areas (the operations route admits
 * any of them; this narrows to the one found): the catalogue's area of the operation's type.
 * null scopes = every scope. A type the catalogue does not know is read with `servers:read`.
 */
export function requireOperationScope(scopes: readonly Scope[] | null, op: Pick<Operation, 'type'>): void {
  if (scopes === null) return;
  const area = entryOf(op.type)?.area ?? 'servers';
  if (!scopes.includes(`${area}:read`)) throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `This API key lacks the scope ${area}:read`);
}
