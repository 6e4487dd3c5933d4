// What the customer-facing platform reads need: the server's machine (or STATE_CONFLICT while it
// has none), and the deadline and error mapping of platform-read.ts.
import type { Server } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { requireServer } from './read.ts';

export { liveRead, providerFailure } from './platform-read.ts';

/** The account's server and its machine ref; STATE_CONFLICT while it has no machine (pending, or never provisioned). */
export async function requireMachine(ctx: Ctx, id: string): Promise<{ server: Server; ref: string }> {
  const server = await requireServer(ctx, id);
  if (server.status === 'pending' || server.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', `Server ${server.id} is ${server.status} and has not been provisioned; retry once it is active`);
  }
  return { server, ref: server.provider_ref };
}
