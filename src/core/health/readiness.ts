import { ping } from '../../db/queries/health.ts';
import type { Db } from '../types.ts';

/** Default time /readyz waits for the database: probes expect a quick answer either way. */
export const READY_TIMEOUT_MS = 2_000;

/** Whether the database answers within `timeoutMs`. Never throws. */
export async function databaseReady(db: Db, timeoutMs = READY_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([ping(db).then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
