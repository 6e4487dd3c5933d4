// Calls a request makes to the platform while the customer waits. The platform's failures become
// the API's (UPSTREAM_ERROR, CAPACITY_UNAVAILABLE); a read that outlasts its deadline counts as
// failed rather than holding the request open.
import type { Server } from '../../db/schema.ts';
import { ProviderError } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { requireServer } from './read.ts';

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

/** The account's server and its machine ref; STATE_CONFLICT while it has no machine (pending, or never provisioned). */
export async function requireMachine(ctx: Ctx, id: string): Promise<{ server: Server; ref: string }> {
  const server = await requireServer(ctx, id);
  if (server.status === 'pending' || server.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', `Server ${server.id} is ${server.status} and has not been provisioned; retry once it is active`);
  }
  return { server, ref: server.provider_ref };
}
