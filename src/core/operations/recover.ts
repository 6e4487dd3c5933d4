// Lost workers. A running operation carries a lease its worker renews; a worker killed mid-run
// stops renewing, and once the lease has passed the operation is queued again as a new job, in
// the same transaction that releases it. The dead worker's own job would also come back, but only
// after JOB_TIMEOUT_S; a second run is harmless (claims and finishing are idempotent, provider
// calls carry the operation id), so recovery need not wait for it. A job a worker fetched but never
// claimed (the fetch's answer was lost to a dropped connection) is recovered the same way.
import { cancelUnclaimedJobs, takeExpiredLeases } from '../../db/queries/operations.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { OperationQueue } from '../context.ts';
import type { Db } from '../types.ts';

export async function requeueAbandonedOperations(db: Db, jobs: OperationQueue, leaseS: number): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    // A job whose fetch was lost (the connection died as its answer came back) is lost the same way.
    const ids = [...await takeExpiredLeases(trx), ...await cancelUnclaimedJobs(trx, leaseS)];
    for (const id of ids) await jobs.enqueueOperation(trx, id);
    return ids;
  });
}
