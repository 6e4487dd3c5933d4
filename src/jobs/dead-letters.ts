// The dead-letter queue: a job lands there when its retries are spent, including when workers
// died mid-run. Its operation is failed (and compensated: refund, release) with the last error.
import type { ExecuteDeps } from '../core/operations/execute.ts';
import { failOperation } from '../core/operations/execute.ts';
import { findOperation } from '../db/queries/operations.ts';
import type { JobLoops } from './job-loops.ts';
import { OPERATIONS_FAILED_QUEUE } from './queue.ts';

/** How long an idle dead-letter loop waits before asking the queue again. */
const POLL_MS = 2_000;

interface DeadLetter {
  operation_id: string;
}

export function runDeadLetters(w: JobLoops, execDeps: ExecuteDeps): Promise<void> {
  return w.loop<DeadLetter>(OPERATIONS_FAILED_QUEUE, 10, POLL_MS, async (jobs) => {
    for (const job of jobs) {
      const id = job.data.operation_id;
      const failed = await w.settle('failing an operation whose retries ran out', async () => {
        const op = await findOperation(execDeps.db, id);
        const reason = op?.last_error
          ? `Gave up after ${op.attempts} attempts: ${op.last_error}`
          : 'The operation did not finish in time and its retries ran out';
        await failOperation(execDeps, id, reason);
      });
      await w.settle('settling a dead-letter job', () => (failed ? w.boss.complete(OPERATIONS_FAILED_QUEUE, job.id) : w.boss.fail(OPERATIONS_FAILED_QUEUE, job.id)));
    }
  });
}
