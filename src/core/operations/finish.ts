// The second transaction of a request that does an operation's work itself, under the lease it
// holds (an IP purchase, a domain renewal): the work's result and the operation's end commit
// together — unless the worker got there first, which only happens when the request's lease
// lapsed (it could not renew it for OPERATION_LEASE_S, e.g. through a database outage) and the
// worker's run finished the operation; the request then reports what the worker decided.
import { finishOperation, lockOperation } from '../../db/queries/operations.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { OperationStatus } from '../../db/schema.ts';
import type { Db } from '../types.ts';

/** `work` and the operation finished together; the status the worker left instead when it finished first. */
export async function finishUnlessRecovered(
  db: Db, opId: string, status: 'completed' | 'failed', detail: string, work: (trx: Db) => Promise<unknown>,
): Promise<OperationStatus | undefined> {
  return inTransaction(db, async (trx) => {
    const op = await lockOperation(trx, opId);
    if (op && op.status !== 'queued' && op.status !== 'running') return op.status;
    await work(trx);
    await finishOperation(trx, opId, status, detail);
    return undefined;
  });
}
