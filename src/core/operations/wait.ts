// Waiting on an operation (GET /v2/operations/{id}?wait=N): the answer comes as soon as the
// operation is completed or failed, or after N seconds with its state then. The wait itself costs
// nothing: no connection is held and nothing is read while it lasts. The adapter hands in how to
// read the operation (each read a short query of its own) and what tells it the operation may have
// finished (a process-wide LISTEN, http/operation-waits.ts); only a signal makes it read again.
import type { Operation } from '../../db/schema.ts';

/** The longest wait a request may ask for, in seconds. */
export const MAX_WAIT_S = 60;

/** One request's watch on one operation. */
export interface FinishWatch {
  /**
   * Resolves once the operation may have finished (a signal, or the watcher going deaf and
   * hearing again: whatever was announced meanwhile was missed), or after `ms`. A signal that
   * came before this call is not lost: it resolves at once. Resolves false when waiting is over
   * whatever the operation's state (the server is closing): the caller reads once more and answers.
   */
  next(ms: number): Promise<boolean>;
  close(): void;
}

/** What announces finished operations. */
export interface FinishSignals {
  /** Starts listening for `id`; call it before the first read, so a finish in between is heard. */
  watch(id: string): FinishWatch;
}

export const isFinished = (op: Pick<Operation, 'status'>) => op.status === 'completed' || op.status === 'failed';

/**
 * The operation once finished, or as it stands after `waitMs`. Without signals (or no wait) it is
 * read once. `read` throws as a plain read would (not found, another account's).
 */
export async function awaitOperation(read: () => Promise<Operation>, signals: FinishSignals | undefined, id: string, waitMs: number, now: () => number = Date.now): Promise<Operation> {
  if (waitMs <= 0 || !signals) return read();
  const deadline = now() + waitMs;
  const watch = signals.watch(id);
  try {
    let op = await read();
    while (!isFinished(op)) {
      const left = deadline - now();
      if (left <= 0) break;
      const more = await watch.next(left);
      op = await read();
      if (!more) break;
    }
    return op;
  } finally {
    watch.close();
  }
}
