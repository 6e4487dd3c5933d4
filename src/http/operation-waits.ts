// The API process's ear for finished operations: one LISTEN connection (outside the pool) on the
// channel of migration 0040, and an in-process map from operation id to the requests waiting on
// it. A NOTIFY wakes exactly those requests; a thousand waiting requests cost no connection and no
// query until their operation finishes. While the listen connection is down, nothing announced is
// heard: waiters then read again at least every FALLBACK_MS, and all of them once it is back.
import type { FinishSignals, FinishWatch } from '../core/operations/wait.ts';
import type { Db } from '../core/types.ts';
import { poolOf } from '../db/connection.ts';
import { OPERATION_FINISHED_CHANNEL } from '../db/names.ts';
import { type NotifyListener, listenOn } from '../db/notify-listener.ts';

/** How often a waiter reads again while announcements cannot be heard. */
export const FALLBACK_MS = 1_000;

interface Waiter {
  /** An announcement came and was not yet taken by next(). */
  signalled: boolean;
  wake: (() => void) | null;
}

export interface OperationWaits extends FinishSignals {
  /** Requests waiting now. */
  readonly waiting: number;
  /** True while announcements are heard. */
  readonly listening: boolean;
  /** Wakes every waiter and makes later waits return at once (the server is closing). */
  release(): void;
  close(): Promise<void>;
}

export function startOperationWaits(db: Db): OperationWaits {
  const byId = new Map<string, Set<Waiter>>();
  let released = false;
  let waiting = 0;
  const signal = (w: Waiter) => {
    w.signalled = true;
    const wake = w.wake;
    w.wake = null;
    wake?.();
  };
  const wakeId = (id: string) => {
    const set = byId.get(id);
    if (set) for (const w of set) signal(w);
  };
  const wakeAll = () => {
    for (const set of byId.values()) for (const w of set) signal(w);
  };
  const pool = poolOf(db);
  const listener: NotifyListener | undefined = pool && listenOn(pool, OPERATION_FINISHED_CHANNEL, {
    notify: (id) => wakeId(id),
    // Whatever was announced while not listening was missed: everyone reads again.
    up: wakeAll,
    down: wakeAll,
  }, 'hostcloud operation waits');

  return {
    get waiting() { return waiting; },
    get listening() { return listener?.listening ?? false; },
    watch(id: string): FinishWatch {
      const w: Waiter = { signalled: false, wake: null };
      let set = byId.get(id);
      if (!set) byId.set(id, (set = new Set()));
      set.add(w);
      let closed = false;
      return {
        next(ms) {
          if (released || closed) return Promise.resolve(false);
          if (w.signalled) {
            w.signalled = false;
            return Promise.resolve(true);
          }
          const wait = listener?.listening ? ms : Math.min(ms, FALLBACK_MS);
          waiting++;
          return new Promise<boolean>((resolve) => {
            const timer = setTimeout(done, wait);
            function done() {
              clearTimeout(timer);
              if (w.wake === done) w.wake = null;
              w.signalled = false;
              waiting--;
              resolve(!released && !closed);
            }
            w.wake = done;
          });
        },
        close() {
          if (closed) return;
          closed = true;
          if (w.wake) signal(w);
          set.delete(w);
          if (set.size === 0 && byId.get(id) === set) byId.delete(id);
        },
      };
    },
    release() {
      released = true;
      wakeAll();
    },
    async close() {
      released = true;
      wakeAll();
      await listener?.close();
    },
  };
}
