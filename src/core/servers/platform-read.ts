// Calls a request makes to the platform while the customer waits: failures become the API's
// (UPSTREAM_ERROR, CAPACITY_UNAVAILABLE), and a read that outlasts its deadline counts as failed
// rather than holding the request open (a real driver need not honour its own timeout).
import { ProviderError } from '../../providers/compute/types.ts';
import { ApiError } from '../errors.ts';

/** The provider's failure as the API's; anything else (a bug) unchanged. */
export function providerFailure(e: unknown): unknown {
  if (!(e instanceof ProviderError)) return e;
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
