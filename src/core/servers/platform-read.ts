// Calls a request makes to the platform while the customer waits: failures become the API's
// (UPSTREAM_ERROR, CAPACITY_UNAVAILABLE; SERVICE_UNAVAILABLE when this process's driver cannot
// serve the machine's node), and a read that outlasts its deadline counts as failed rather than
// holding the request open (a real driver need not honour its own timeout).
import { WrongPlatformError } from '../../providers/errors.ts';
import { ProviderError } from '../../providers/compute/types.ts';
import { ApiError } from '../errors.ts';

/** Seconds a client waits before asking again when this process's driver cannot serve the machine. */
const WRONG_PLATFORM_RETRY_AFTER_S = 5;

/** The provider's failure as the API's; anything else (a bug) unchanged. */
export function providerFailure(e: unknown): unknown {
  if (!(e instanceof ProviderError)) return e;
  // This process runs another COMPUTE_DRIVER than the machine's node needs (a rolling deploy's
  // misconfigured process, logged where the driver is wired): another process can answer.
  if (e instanceof WrongPlatformError) {
    return new ApiError('SERVICE_UNAVAILABLE', 'The platform of this machine cannot be reached from here right now; retry shortly', [], { retryAfterS: WRONG_PLATFORM_RETRY_AFTER_S });
  }
  return e.code === 'CAPACITY_UNAVAILABLE'
    ? new ApiError('CAPACITY_UNAVAILABLE', `No capacity: ${e.message}`)
    : new ApiError('UPSTREAM_ERROR', `The platform failed: ${e.message}`);
}

/** Runs a platform read, failing with UPSTREAM_ERROR after `timeoutMs`. */
export async function liveRead<T>(work: () => Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError('UPSTREAM_ERROR', `The platform did not answer (${what}) within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch (e) {
    throw providerFailure(e);
  } finally {
    clearTimeout(timer);
  }
}
