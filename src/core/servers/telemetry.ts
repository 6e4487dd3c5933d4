// Live readings from the platform: utilization, this month's traffic and the firewall. Unlike the
// server detail, these have no last-known value to fall back on, so a failing or silent platform
// is the customer's UPSTREAM_ERROR.
import { findCatalogRow } from '../../db/queries/catalog.ts';
import type { FirewallRule, Metrics, Traffic } from '../../providers/compute/types.ts';
import type { Server } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { PageRequest, Paged } from '../pagination.ts';
import { liveRead, requireMachine } from './upstream.ts';

/** A plan's bandwidth_gb counts in decimal gigabytes, as transfer is sold. */
const BYTES_PER_GB = 1_000_000_000;

export async function getMetrics(ctx: Ctx, serverId: string): Promise<Metrics> {
  const { ref } = await requireMachine(ctx, serverId);
  return liveRead(() => ctx.compute.metrics(ref), ctx.providerTimeoutMs, 'metrics');
}

/** "YYYY-MM" of `at`, UTC. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** This month's traffic; the quota is the plan's allowance when the server has a plan, else the platform's. */
export async function getTraffic(ctx: Ctx, serverId: string): Promise<Traffic> {
  const { server, ref } = await requireMachine(ctx, serverId);
  const [traffic, plan] = await Promise.all([
    liveRead(() => ctx.compute.traffic(ref, monthOf(ctx.now)), ctx.providerTimeoutMs, 'traffic'),
    server.plan_id === null ? undefined : findCatalogRow(ctx.db, 'plans', server.plan_id),
  ]);
  return plan ? { ...traffic, quota_bytes: plan.bandwidth_gb * BYTES_PER_GB } : traffic;
}

/** The server's firewall, ordered by position ascending (whatever order the platform answers in). */
export async function listFirewallRules(ctx: Ctx, serverId: string, page: PageRequest): Promise<Paged<FirewallRule>> {
  const { ref } = await requireMachine(ctx, serverId);
  const rules = (await liveRead(() => ctx.compute.firewallRules(ref), ctx.providerTimeoutMs, 'firewall')).sort((a, b) => a.position - b.position);
  const start = (page.page - 1) * page.perPage;
  return { items: rules.slice(start, start + page.perPage), total: rules.length, ...page };
}

/** This month's traffic as far as it is known: the bytes are null when the platform cannot say. */
export interface TrafficSummary {
  in_bytes: number | null;
  out_bytes: number | null;
  /** The plan's allowance (or the platform's quota); null for a custom server the platform cannot be asked about. */
  quota_bytes: number | null;
}

/**
 * This month's traffic for a page that must load anyway (v1's server detail): the bytes are null
 * while the server has no machine or the platform does not answer in time.
 */
export async function trafficIfAvailable(ctx: Ctx, server: Pick<Server, 'id' | 'plan_id'>): Promise<TrafficSummary> {
  try {
    return await getTraffic(ctx, server.id);
  } catch (e) {
    if (!(e instanceof ApiError && (e.code === 'STATE_CONFLICT' || e.code === 'UPSTREAM_ERROR'))) throw e;
    const plan = server.plan_id === null ? undefined : await findCatalogRow(ctx.db, 'plans', server.plan_id);
    return { in_bytes: null, out_bytes: null, quota_bytes: allowanceOf(plan) };
  }
}

/** The quota of a server the platform cannot be asked about: its plan's allowance, or none (a custom size). */
export function allowanceOf(plan: { bandwidth_gb: number } | null | undefined): number | null {
  return plan ? plan.bandwidth_gb * BYTES_PER_GB : null;
}

export { BYTES_PER_GB };
