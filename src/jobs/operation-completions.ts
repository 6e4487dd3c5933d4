// The worker's completions with their jobs. The core batches completions of operations
// (batchCompletions) and knows nothing of jobs; here each run's job rides along: the statement that
// completes a batch's operations completes their jobs too (operationJobsCompleted), so a job costs
// no complete of its own. A completion that went alone (its batch failed, or it could not share a
// statement) says so, and the worker completes its job itself.
import { batchCompletions } from '../core/operations/execute.ts';
import type { RunResult } from '../core/operations/runner.ts';
import type { Db } from '../core/types.ts';
import { operationJobsCompleted } from '../db/queries/jobs.ts';
import type { Operation } from '../db/schema.ts';

export interface JobCompletions {
  /** Completes `op` with `result`; true when its job (of `queue`) was completed in the same commit. */
  (op: Operation, result: RunResult, jobId: string | undefined): Promise<boolean>;
  /** Waits for every completion handed in so far. */
  flush(): Promise<void>;
}

export function batchJobCompletions(db: Db, queue: string): JobCompletions {
  // The job of each completion in hand, by the operation row its run claimed (one per run).
  const jobOf = new Map<Operation, string>();
  const completions = batchCompletions(db, undefined, (ops) => {
    const ids = ops.flatMap((op) => { const id = jobOf.get(op); return id === undefined ? [] : [id]; });
    return ids.length === 0 ? [] : [operationJobsCompleted(queue, ids)];
  });
  const complete = async (op: Operation, result: RunResult, jobId: string | undefined) => {
    if (jobId === undefined) {
      await completions(op, result);
      return false;
    }
    jobOf.set(op, jobId);
    try {
      return await completions(op, result);
    } finally {
      jobOf.delete(op);
    }
  };
  return Object.assign(complete, { flush: () => completions.flush() });
}
