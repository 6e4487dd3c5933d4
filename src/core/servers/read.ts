// Reading servers. The detail asks the provider for live power state, OS and size, best effort:
// a slow or failing provider degrades those fields to what we know (power `unknown`), never to
// an error, because a customer's dashboard must still load.
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { findAccountServer, findAccountServerDetail, findOsSlug, listServerIps, listServersPage, type ServerDetailFacts, type ServerListRow } from '../../db/queries/servers.ts';
import type { PowerState, Server, ServerStatus } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { liveRead } from './platform-read.ts';
import type { UpcomingCharge } from '../billing/upcoming.ts';
import { serverNextCharge } from './upcoming.ts';

export interface ServerView {
  /** The row, or what a detail reads of it. */
  server: ServerDetailFacts;
  plan: { id: number; name: string } | null;
  /** Only in the detail: live (or last known) power state and OS slug. */
  power: PowerState | null;
  os: string | null;
  extraIps: { address: string; version: 4 | 6 }[];
  /** Only in the detail (getServer): the next charge, as GET /v2/servers/{id} shows it. */
  nextCharge?: UpcomingCharge | null;
}

/** A list row; `live_power` only when the caller asked for the live state (undefined otherwise). */
export type ServerListEntry = ServerListRow & { live_power?: PowerState };

/** Platform reads at once for one page's live power: a page of 100 must not open 100 connections. */
const LIVE_POWER_CONCURRENCY = 8;

export async function listServers(
  ctx: Ctx, filter: { status?: ServerStatus; stopped?: boolean }, page: PageRequest, opts: { livePower?: boolean } = {},
): Promise<Paged<ServerListEntry>> {
  const { rows, total } = await listServersPage(ctx.db, ctx.accountId, filter.status, page.perPage, offsetOf(page), filter.stopped);
  const items = opts.livePower ? await withLivePower(ctx, rows) : rows;
  return { items, total, ...page };
}

/**
 * The page's live power states in one request (the panel's and `hc`'s lists), asked of the
 * platform a few at a time within the provider timeout; best effort as in the detail: a machine
 * the platform does not answer for reads `unknown`, and the list still loads.
 */
async function withLivePower(ctx: Ctx, rows: ServerListRow[]): Promise<ServerListEntry[]> {
  const out: ServerListEntry[] = rows.map((r) => ({ ...r, live_power: r.power_state }));
  const pending = out.filter((r) => r.provider_ref && r.status === 'active' && !ctx.sandbox && r.power_state !== 'migrating');
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const row = pending[next++]!;
      const ref = row.provider_ref!;
      try {
        row.live_power = (await liveRead(() => ctx.compute.status(ref, ctx.providerTimeoutMs), ctx.providerTimeoutMs, 'status')).power;
      } catch {
        row.live_power = 'unknown';
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIVE_POWER_CONCURRENCY, pending.length) }, worker));
  return out;
}

/** The account's live server, or RESOURCE_NOT_FOUND (another account's id included). */
export async function requireServer(ctx: Ctx, id: string, db: Db = ctx.db): Promise<Server> {
  const server = await findAccountServer(db, ctx.accountId, id);
  if (!server) throw notFound('Server');
  return server;
}

/** Plan, OS and addresses for presenting a server we already hold (no provider call). */
export async function viewOf(db: Db, server: Server, power: PowerState | null = server.power_state, liveOs?: string | null): Promise<ServerView> {
  const [plan, os, ips] = await Promise.all([
    server.plan_id === null ? undefined : findCatalogRow(db, 'plans', server.plan_id),
    liveOs === undefined ? findOsSlug(db, server.os_version_id) : undefined,
    listServerIps(db, server.id),
  ]);
  return {
    server,
    plan: plan ? { id: plan.id, name: plan.name } : null,
    power,
    os: liveOs === undefined ? os?.slug ?? null : liveOs,
    extraIps: ips.filter((ip) => ip.address !== null).map((ip) => ({ address: ip.address!, version: ip.version })),
  };
}

export async function getServer(ctx: Ctx, id: string): Promise<ServerView> {
  const row = await findAccountServerDetail(ctx.db, ctx.accountId, id);
  if (!row) throw notFound('Server');
  const { server } = row;
  const view: ServerView = {
    server,
    plan: server.plan_id === null ? null : { id: server.plan_id, name: row.plan_name ?? '' },
    power: server.power_state,
    os: row.os_slug,
    extraIps: row.extra_ips,
    nextCharge: serverNextCharge(server, { due: row.due, extraIpsCents: row.extra_ips_cents, snapshotFeesCents: row.snapshot_fees_cents, tierDiscount: row.tier_discount }),
  };
  // Not provisioned yet (or sandbox): there is nothing live to ask about.
  if (!server.provider_ref || server.status !== 'active' || ctx.sandbox) return view;
  try {
    const ref = server.provider_ref;
    const live = await liveRead(() => ctx.compute.status(ref, ctx.providerTimeoutMs), ctx.providerTimeoutMs, 'status');
    // The platform reports a migrating machine as running (live) or stopped (cold): ours says what is going on.
    const power = server.power_state === 'migrating' ? 'migrating' : live.power;
    return { ...view, server: { ...server, cpu_cores: live.cpuCores, ram_mb: live.ramMb, storage_gb: live.storageGb }, power, os: live.osSlug };
  } catch {
    return { ...view, power: 'unknown' };
  }
}
