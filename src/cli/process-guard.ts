// The last line of defence of `hostcloud serve` and `hostcloud worker`. Every database and Redis
// error path is handled where it arises (connection.ts, rate-limit.ts, the worker's loops); a
// rejection or exception that still reaches the process is logged, always. If it is a database
// or Redis fault (the connection went away under some promise nobody awaited) the process is
// sound and carries on; anything else is a bug in an unknown state, so the process exits with
// code 1 for its supervisor to restart it — loudly, never silently.
import type { Logger } from 'pino';
import { classifyDatabaseError } from '../db/failures.ts';

/** ioredis's own connection errors (they carry no code). */
const REDIS_FAULT = /Connection is closed|Stream isn't writeable|MaxRetriesPerRequest|Command timed out|Reached the max retries/;

export function isKnownFault(err: unknown): boolean {
  if (classifyDatabaseError(err) !== null) return true;
  if (!(err instanceof Error)) return false;
  return REDIS_FAULT.test(err.message) || REDIS_FAULT.test(err.name);
}

export type Exit = (code: number) => void;

/** The handler for both events; exported for tests (which pass their own `exit`). */
export function faultHandler(logger: Logger, exit: Exit) {
  return (kind: 'unhandledRejection' | 'uncaughtException', err: unknown): void => {
    if (isKnownFault(err)) {
      logger.error({ err, event: kind }, `${kind} from a database or Redis fault; the process carries on`);
      return;
    }
    logger.fatal({ err, event: kind }, `${kind}: unknown failure; exiting with code 1 so a supervisor restarts the process`);
    exit(1);
  };
}

export function guardProcess(logger: Logger, exit: Exit = (code) => process.exit(code)): void {
  const handle = faultHandler(logger, exit);
  process.on('unhandledRejection', (reason) => handle('unhandledRejection', reason));
  process.on('uncaughtException', (err) => handle('uncaughtException', err));
}
