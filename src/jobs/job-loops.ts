// The plumbing every loop of the worker shares: pg-boss over a watched executor (a failed
// statement closes the database gate even when pg-boss swallows it, as its fetch does), pauses
// that stopping cuts short, settling a job whatever the database does, and a fetch-run-settle
// loop per queue. pg-boss 10's own work() loop settles each job with a complete() or fail() whose
// promise nobody awaits (an unhandled rejection when the database drops then): these loops fetch,
// run and settle jobs themselves, with every promise handled.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from '../core/types.ts';
import { classifyDatabaseError } from '../db/failures.ts';
import { JOB_SCHEMA } from '../db/names.ts';
import type { DbGate } from './db-gate.ts';
import { MAINTENANCE_QUEUE, executorOf } from './queue.ts';

export type Job<T> = PgBoss.JobWithMetadata<T>;

export interface JobLoops {
  readonly boss: PgBoss;
  readonly gate: DbGate;
  readonly logger: Logger;
  /** True once the worker began to stop: loops finish the job in hand and return. */
  readonly stopping: boolean;
  /** A pause that wakeAll() cuts short. */
  nap(ms: number): Promise<void>;
  /** Runs `fn` until it succeeds, waiting out database outages; other failures are logged. Never rejects. */
  settle(what: string, fn: () => Promise<unknown>): Promise<boolean>;
  /** One slot of a queue: fetch, run, settle, and straight on to the next job while there is one. */
  loop<T>(queue: string, batchSize: number, pollMs: number, handle: (jobs: Job<T>[]) => Promise<void>): Promise<void>;
  /** Marks the worker stopping (loops return after their job in hand). */
  halt(): void;
  /** Ends every pause at once. */
  wakeAll(): void;
}

/** Starts pg-boss on `db` (no cron, no migration: migration 0002 made its schema) and the loops' plumbing. */
export async function startJobLoops(db: Db, gate: DbGate, logger: Logger, maintenanceIntervalS: number): Promise<JobLoops> {
  let stopping = false;
  const plain = executorOf(db);
  const watched = {
    async executeSql(text: string, values?: unknown[]) {
      try {
        return await plain.executeSql(text, values);
      } catch (e) {
        gate.noteFailure(e);
        throw e;
      }
    },
  };
  const boss = await startBoss(() => {
    const b = new PgBoss({
      db: watched,
      schema: JOB_SCHEMA,
      migrate: false,
      supervise: true,
      // No cron: its internal loop has the unawaited settle of work(); maintenance is a throttled send.
      schedule: false,
      maintenanceIntervalSeconds: maintenanceIntervalS,
    } as PgBoss.ConstructorOptions);
    b.on('error', (err) => {
      if (!gate.noteFailure(err)) logger.error({ err, component: 'worker' }, 'job queue error');
    });
    return b;
  }, gate, logger);
  // Databases set up by earlier versions hold an hourly cron entry nothing reads any more.
  await boss.unschedule(MAINTENANCE_QUEUE).catch(() => undefined);

  const naps = new Set<() => void>();
  const nap = (ms: number) => new Promise<void>((resolve) => {
    const done = () => { clearTimeout(timer); naps.delete(done); resolve(); };
    const timer = setTimeout(done, ms);
    naps.add(done);
  });

  const settle = async (what: string, fn: () => Promise<unknown>): Promise<boolean> => {
    for (;;) {
      try {
        await fn();
        return true;
      } catch (err) {
        if (gate.noteFailure(err) && !stopping) {
          await gate.ready();
          continue;
        }
        // Stopping during an outage: the job stays active and comes back after JOB_TIMEOUT_S, or
        // sooner through the operation's lease.
        if (!stopping) logger.error({ err, component: 'worker' }, `${what} failed`);
        return false;
      }
    }
  };

  const fetch = async <T>(queue: string, batchSize: number): Promise<Job<T>[]> => {
    try {
      return await boss.fetch<T>(queue, { batchSize, includeMetadata: true });
    } catch (err) {
      if (!gate.noteFailure(err)) logger.error({ err, component: 'worker', queue }, 'fetching jobs failed');
      return [];
    }
  };

  const loop = async <T>(queue: string, batchSize: number, pollMs: number, handle: (jobs: Job<T>[]) => Promise<void>) => {
    while (!stopping) {
      await gate.ready();
      if (stopping) break;
      const jobs = await fetch<T>(queue, batchSize);
      if (jobs.length === 0) {
        await nap(pollMs);
        continue;
      }
      await handle(jobs).catch((err: unknown) => logger.error({ err, component: 'worker', queue }, 'job handler failed'));
    }
  };

  return {
    boss,
    gate,
    logger,
    get stopping() { return stopping; },
    nap,
    settle,
    loop,
    halt() { stopping = true; },
    wakeAll() { for (const wake of [...naps]) wake(); },
  };
}

/** How long a start that the database was too busy to answer waits before it tries again. */
const BUSY_START_RETRY_MS = 1_000;

/**
 * pg-boss, started once the database lets it: a worker that starts while the database is away or
 * too slow to answer (restarting, or a busy machine past the connect or statement timeout) waits
 * for it as a running worker does, instead of failing. In `serve` the worker starts after the
 * server says it is listening, and that failure ended the process under its first clients. A
 * PgBoss whose start failed never starts again (it stays "starting"): each try makes a new one.
 */
async function startBoss(make: () => PgBoss, gate: DbGate, logger: Logger): Promise<PgBoss> {
  for (;;) {
    const boss = make();
    try {
      await boss.start();
      return boss;
    } catch (err) {
      const fault = classifyDatabaseError(err);
      if (fault !== 'unavailable' && fault !== 'contention') throw err;
      // Unavailable: the watched executor has closed the gate; its probe opens it again.
      if (!gate.noteFailure(err)) {
        logger.warn({ err, component: 'worker' }, 'the database was too busy to start the job queue; trying again');
        await new Promise((resolve) => setTimeout(resolve, BUSY_START_RETRY_MS));
      }
      await gate.ready();
    }
  }
}
