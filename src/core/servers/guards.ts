// State checks shared by every write on an existing server. Each write locks the server row first,
// so two requests on one server see each other's committed result rather than racing; the unique
// index on unfinished operations still has the last word on "one operation at a time".
import { extraIpsMonthlyCents, findServerById, lockAccountServer, updateServerRow } from '../../db/queries/servers.ts';
import type { Server } from '../../db/schema.ts';
import { ProviderError } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { suspendedConflict } from '../billing/suspension.ts';
import { ApiError, notFound } from '../errors.ts';
import type { MachineRows } from '../machines/runners.ts';
export { refuseWhileBuilding } from '../machines/guards.ts';
import type { Cents } from '../money.ts';
import type { Db } from '../types.ts';
import { cycleHours } from './rules.ts';

/** The caller's live server, locked for the rest of `trx`; another account's id is not found. */
export async function lockServer(ctx: Ctx, trx: Db, id: string): Promise<Server> {
  const server = await lockAccountServer(trx, ctx.accountId, id);
  if (!server) throw notFound('Server');
  return server;
}

/** Actions need a provisioned, active server (a pending one is still being built). */
export function requireActive(server: Server): asserts server is Server & { provider_ref: string } {
  if (server.status !== 'active') {
    throw new ApiError('STATE_CONFLICT', suspendedConflict('Server', server.id, server.status) ?? `Server ${server.id} is ${server.status}; this needs an active server`);
  }
  if (!server.provider_ref) throw new ApiError('STATE_CONFLICT', `Server ${server.id} has no machine yet`);
}

/**
 * The monthly price of the machine itself: the bill without its extra addresses (which stay as
 * they are through a resize or upgrade, and are not copied by a clone).
 */
export async function baseMonthlyCents(db: Db, server: Server): Promise<Cents> {
  return Math.max(0, server.price_cents - (await extraIpsMonthlyCents(db, server.id)));
}

/** Whole hours of the server's current cycle and those still unused at `now`. */
export function cycleOf(server: Server, now: Date): { period: number; remaining: number } {
  return cycleHours(server.period_started_at, server.next_billing_at, now);
}

/**
 * For runners: the platform's id of the server's machine. Deletes and other actions wait for the
 * running operation, so a missing machine is not something a retry can fix.
 */
export async function machineRefOf(db: Db, serverId: string): Promise<string> {
  const server = await findServerById(db, serverId);
  if (!server?.provider_ref || server.deleted_at) throw new ProviderError('UPSTREAM_ERROR', `Server ${serverId} has no machine`, false);
  return server.provider_ref;
}

/** Servers as the runners every machine kind shares see them. */
export const SERVER_ROWS: MachineRows = {
  noun: 'Server',
  refOf: machineRefOf,
  update: async (db, id, patch) => {
    await updateServerRow(db, id, patch);
  },
};
