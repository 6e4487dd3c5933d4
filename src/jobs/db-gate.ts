// The worker's view of the database: open, or closed during an outage. Any database call that
// fails as "unavailable" (src/db/failures.ts) closes the gate; every loop of the worker waits at
// it instead of spinning on errors, while one probe retries with exponential backoff and opens it
// again when the database answers. Nothing here ever rejects.
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/failures.ts';

export interface DbGate {
  /** Resolves at once while the database is up; during an outage, when it is back (or on close). */
  ready(): Promise<void>;
  /** Records a failed call; true (and the gate closes) when it means the database is unavailable. */
  noteFailure(err: unknown): boolean;
  readonly open: boolean;
  /** Stops probing and releases every waiter. */
  close(): void;
}

export interface GateOptions {
  probe: () => Promise<unknown>;
  logger: Logger;
  /** First pause between probes; doubled after each failure up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export function createDbGate(opts: GateOptions): DbGate {
  const minDelay = opts.minDelayMs ?? 250;
  const maxDelay = opts.maxDelayMs ?? 2_000;
  let down: { since: number; waiters: (() => void)[] } | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const reopen = () => {
    const was = down;
    down = null;
    clearTimeout(timer);
    for (const w of was?.waiters ?? []) w();
    return was;
  };

  const probeAfter = (delay: number) => {
    timer = setTimeout(() => {
      if (closed || !down) return;
      opts.probe().then(
        () => {
          const was = reopen();
          if (was) opts.logger.warn({ component: 'worker', down_ms: Date.now() - was.since }, 'database reachable again; worker resumed');
        },
        () => probeAfter(Math.min(delay * 2, maxDelay)),
      );
    }, delay);
    timer.unref();
  };

  return {
    get open() {
      return down === null;
    },
    ready() {
      if (!down || closed) return Promise.resolve();
      const waiting = down;
      return new Promise<void>((resolve) => waiting.waiters.push(resolve));
    },
    noteFailure(err) {
      if (!isDatabaseUnavailable(err)) return false;
      if (!down && !closed) {
        down = { since: Date.now(), waiters: [] };
        opts.logger.warn({ component: 'worker', err }, 'database unavailable; worker paused, retrying with backoff');
        probeAfter(minDelay);
      }
      return true;
    },
    close() {
      closed = true;
      reopen();
    },
  };
}
