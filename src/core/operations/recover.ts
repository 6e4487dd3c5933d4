// Lost workers. A running operation carries a lease its worker renews; a worker killed mid-run
// stops renewing, and once the lease has passed the operation is queued again as a new job, in
// the same transaction that releases it. The dead worker's own job would also come back, but only
// after JOB_TIMEOUT_S; a second run is harmless (claims and finishing are idempotent, provider
// calls carry the operation id), so recovery need not wait for it.
import { takeExpiredLeases } from '../../db/queries/operations.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { JobQueue } from '../context.ts';
import type { Db } from '../types.ts';

export async function requeueAbandonedOperations(db: Db, jobs: JobQueue): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const ids = await takeExpiredLeases(trx);
    for (const id of ids) await jobs.enqueueOperation(trx, id);
    return ids;
  });
}
