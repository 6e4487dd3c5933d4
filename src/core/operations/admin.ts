// The operator's operations (/admin/v1/operations, `hostcloud admin operations`): every account's,
// filtered and paged; cancel — a queued operation, or one running without a live lease (its worker
// gone, or waiting for a retry), fails at once with its refund and clean-up (failOperation); one a
// worker holds is asked to stop at its next step (execute.ts) — and retry: a failed operation whose
// type allows it (catalogue.ts `retry`) runs again as a new operation on the same resource.
import { type OperationFilter, findOperationById, listOperationsPage, lockOperationForCancel, requestOperationCancel } from '../../db/queries/admin-operations.ts';
import { findUnfinishedOperation, insertOperationUnlessBusy } from '../../db/queries/operations.ts';
import type { Operation } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { OperationQueue } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { retryable } from './catalogue.ts';
import { CANCELLED_DETAIL, type ExecuteDeps, failOperation } from './execute.ts';
import { operationRunning } from './service.ts';

export type { OperationFilter } from '../../db/queries/admin-operations.ts';

export async function listAllOperations(db: Db, filter: OperationFilter, page: PageRequest): Promise<Paged<Operation>> {
  const { rows, total } = await listOperationsPage(db, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getAnyOperation(db: Db, id: string): Promise<Operation> {
  const op = await findOperationById(db, id);
  if (!op) throw notFound('Operation');
  return op;
}

/** What a cancel did: failed it now (refunded, cleaned up), or asked its run to stop at its next step. */
export interface Cancelled {
  operation: Operation;
  outcome: 'failed' | 'stop_requested';
}

export async function cancelOperation(deps: ExecuteDeps, id: string, now: Date): Promise<Cancelled> {
  const asked = await inTransaction(deps.db, async (trx) => {
    const op = await lockOperationForCancel(trx, id);
    if (!op) throw notFound('Operation');
    if (op.status === 'completed' || op.status === 'failed') {
      throw new ApiError('STATE_CONFLICT', `Operation ${id} is already ${op.status}; only a queued or running operation can be cancelled`);
    }
    if (!op.live) return false;
    await requestOperationCancel(trx, id, now);
    return true;
  });
  if (!asked) await failOperation(deps, id, CANCELLED_DETAIL);
  const operation = await getAnyOperation(deps.db, id);
  // A run that finished between the lock and the fail: it stands as it ended.
  return { operation, outcome: asked ? 'stop_requested' : 'failed' };
}

/** A failed operation of a retryable type, queued again as a new operation (same account, resource and params). */
export async function retryOperation(db: Db, jobs: OperationQueue, id: string): Promise<Operation> {
  return inTransaction(db, async (trx) => {
    const op = await findOperationById(trx, id);
    if (!op) throw notFound('Operation');
    if (op.status !== 'failed') throw new ApiError('STATE_CONFLICT', `Operation ${id} is ${op.status}; only a failed operation can be retried`);
    if (!retryable(op.type)) {
      throw new ApiError('STATE_CONFLICT', `Operations of type ${op.type} cannot be retried: it charged or undid something when it failed; the customer starts it again`);
    }
    const again = await insertOperationUnlessBusy(trx, {
      id: newId('op'), account_id: op.account_id, type: op.type, resource_type: op.resource_type, resource_id: op.resource_id,
      params: op.params, detail: `Queued again by the operator (retry of ${op.id})`,
    });
    if (!again) throw operationRunning(op.resource_id, await findUnfinishedOperation(trx, op.resource_type, op.resource_id));
    await jobs.enqueueOperation(trx, again.id);
    return again;
  });
}
