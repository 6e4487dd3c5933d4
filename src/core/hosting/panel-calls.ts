// Calls a request makes to the hosting panel while the customer waits: the panel's failures become
// the API's, and a call that outlasts its deadline counts as failed rather than holding the request
// open (a real driver need not honour its own timeout).
import { ProviderError, type HostingPanel, type PanelServer } from '../../providers/hosting/types.ts';
import { ApiError } from '../errors.ts';

/** Seconds a client is asked to wait when no panel server has room. */
export const NO_ROOM_RETRY_AFTER_S = 300;

/** The panel's failure as the API's; anything else (a bug) unchanged. */
export function panelFailure(e: unknown): unknown {
  if (!(e instanceof ProviderError)) return e;
  return e.code === 'CAPACITY_UNAVAILABLE'
    ? new ApiError('SERVICE_UNAVAILABLE', `The hosting panel has no room: ${e.message}`, [], { retryAfterS: NO_ROOM_RETRY_AFTER_S })
    : new ApiError('UPSTREAM_ERROR', `The hosting panel failed: ${e.message}`);
}

/** Runs a panel call, failing with UPSTREAM_ERROR after `timeoutMs`. */
export async function panelCall<T>(work: () => Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError('UPSTREAM_ERROR', `The hosting panel did not answer (${what}) within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch (e) {
    throw panelFailure(e);
  } finally {
    clearTimeout(timer);
  }
}

/** Every panel server with its usage (the operator's view; an order's capacity check). */
export function listPanelServers(panel: HostingPanel, timeoutMs: number): Promise<PanelServer[]> {
  return panelCall(() => panel.listServers(), timeoutMs, 'servers');
}

/** SERVICE_UNAVAILABLE unless some panel server can take one more account. */
export async function requirePanelRoom(panel: HostingPanel, timeoutMs: number): Promise<void> {
  const servers = await listPanelServers(panel, timeoutMs);
  if (!servers.some((s) => s.accounts < s.capacity)) {
    throw new ApiError('SERVICE_UNAVAILABLE', 'No hosting server has room for a new account at the moment; nothing was charged, try again later', [],
      { retryAfterS: NO_ROOM_RETRY_AFTER_S });
  }
}
