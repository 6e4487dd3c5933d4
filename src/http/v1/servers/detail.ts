// The parts of v1's server detail, from the core functions v2 uses: the server (live state, best
// effort), the reverse DNS we hold for its addresses, and this month's traffic (best effort).
import type { Ctx } from '../../../core/context.ts';
import type { CreatedServer } from '../../../core/servers/create-request.ts';
import { type ServerView, getServer, viewOf } from '../../../core/servers/read.ts';
import { reverseDnsOf } from '../../../core/servers/reverse-dns.ts';
import { trafficIfAvailable } from '../../../core/servers/telemetry.ts';
import type { Server } from '../../../db/schema.ts';
import { type DetailParts, v1Detail } from './presenters.ts';

export async function detailParts(ctx: Ctx, view: ServerView): Promise<DetailParts> {
  const [rdns, traffic] = await Promise.all([reverseDnsOf(ctx.db, view.server), trafficIfAvailable(ctx, view.server)]);
  return { view, rdns, traffic };
}

/** GET /v1/servers/{id}'s data. */
export async function serverDetail(ctx: Ctx, id: string) {
  return v1Detail(await detailParts(ctx, await getServer(ctx, id)));
}

/**
 * The detail of a server just created, from what the create returns: it has no address yet (so no
 * reverse DNS) and no machine to ask for traffic (so no bytes, and its plan's allowance).
 */
export function createdDetail(created: CreatedServer) {
  return v1Detail({ view: created.view, rdns: new Map(), traffic: created.traffic });
}

/** The detail of a server a write just changed (no live read: the write's own view is current). */
export async function detailOf(ctx: Ctx, server: Server) {
  return v1Detail(await detailParts(ctx, await viewOf(ctx.db, server)));
}
