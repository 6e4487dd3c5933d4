// The addresses of a server: the primary pair from its network, plus extra ones (server_ips),
// each billed monthly at the ipv4/ipv6 unit price. Adding one must leave no half-written change
// whatever the platform does, yet the platform must not be called inside a transaction. So:
// tx1 pays for a row without an address and raises the price; the platform attaches (token
// "ip-<row id>", so a retried call cannot lease twice); tx2 stores the address, or undoes tx1.
// tx1 also starts a server.ip_attach operation, running under a lease the request holds until tx2
// finishes it; nothing is queued. If the request dies between its transactions, the lease lapses
// and the worker's sweep queues the operation (within about OPERATION_LEASE_S): the job
// (runners/server.ip_attach.ts) attaches with the same token, or undoes tx1 with the same code as tx2.
import { addToServerPrice, countHeldIps, insertPendingIp } from '../../db/queries/server-ips.ts';
import { listServerIps, lockAccountServer } from '../../db/queries/servers.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Server, ServerIp } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { finishUnlessRecovered } from '../operations/finish.ts';
import { DEFAULT_LEASE_S, holdLease } from '../operations/lease.ts';
import { startOperation } from '../operations/service.ts';
import type { PageRequest, Paged } from '../pagination.ts';
import type { Db } from '../types.ts';
import { payServerCharge, quoteServerCharge } from './charge.ts';
import { unitPrice } from './pricing.ts';
import { requireServer } from './read.ts';
import { cycleHours } from './rules.ts';
import { providerFailure } from './upstream.ts';
import { suspendedConflict } from '../billing/suspension.ts';
import {
  type IpAttachParams, type IpEntry, type IpVersion, attachToken, extraEntry, storeAddress, undoPurchase,
} from './runners/server.ip_attach.ts';

export { type IpAttachParams, type IpEntry, type IpVersion, ipBody } from './runners/server.ip_attach.ts';

/** Addresses of one family a server may hold, primary included (the create limit, ipv4_count ≤ 16). */
export const MAX_ADDRESSES_PER_FAMILY = 16;

function primaryIps(server: Server): IpEntry[] {
  const out: IpEntry[] = [];
  const { ipv4, ipv6 } = server.network ?? { ipv4: null, ipv6: null };
  if (ipv4) out.push({ address: ipv4.address, version: 4, type: 'primary', gateway: ipv4.gateway, monthlyPriceCents: null });
  if (ipv6) out.push({ address: ipv6.address, version: 6, type: 'primary', gateway: ipv6.gateway, monthlyPriceCents: null });
  return out;
}

/** Primary addresses first, then extra ones in the order they were added. */
export async function listIps(ctx: Ctx, serverId: string, page: PageRequest): Promise<Paged<IpEntry>> {
  const server = await requireServer(ctx, serverId);
  const extras = (await listServerIps(ctx.db, server.id)).filter((ip): ip is ServerIp & { address: string } => ip.address !== null);
  const all = [...primaryIps(server), ...extras.map(extraEntry)];
  const start = (page.page - 1) * page.perPage;
  return { items: all.slice(start, start + page.perPage), total: all.length, ...page };
}

export interface Reserved {
  ref: string;
  operationId: string;
  params: IpAttachParams;
}

const leaseOf = (ctx: Ctx) => ctx.operationLeaseS ?? DEFAULT_LEASE_S;

/** tx1: checks in the API's check order (docs/architecture.md, "Check order"), then the row without an address, the raised price, the charge and the leased operation. */
export async function reserveIp(ctx: Ctx, trx: Db, serverId: string, version: IpVersion, key: string | null = null): Promise<Reserved> {
  const server = await lockAccountServer(trx, ctx.accountId, serverId);
  if (!server) throw notFound('Server');
  if (server.status !== 'active' || server.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', suspendedConflict('Server', server.id, server.status) ?? `Server ${server.id} is ${server.status}; addresses can be added to an active server only`);
  }
  const primary = primaryIps(server).filter((ip) => ip.version === version).length;
  if (primary + (await countHeldIps(trx, server.id, version)) >= MAX_ADDRESSES_PER_FAMILY) {
    throw new ApiError('QUOTA_EXCEEDED', `Server ${server.id} already has ${MAX_ADDRESSES_PER_FAMILY} IPv${version} addresses, the most a server may hold`);
  }
  const unit = await unitPrice(trx, version === 4 ? 'ipv4' : 'ipv6');
  const { period, remaining } = cycleHours(server.period_started_at, server.next_billing_at, ctx.now);
  const quote = await quoteServerCharge(trx, {
    accountId: ctx.accountId, fromCents: server.price_cents, toCents: server.price_cents + unit, heldDiscountCents: server.discount_cents,
    cycle: { remaining, period }, resource: `server/${server.id}`,
    description: `Server ${server.name} (${server.id}): extra IPv${version} address, ${remaining} of ${period} hours of this cycle`,
  });
  const row = await insertPendingIp(trx, { server_id: server.id, version, price_cents: unit });
  if (unit > 0) await addToServerPrice(trx, server.id, unit, quote.discountDeltaCents);
  await payServerCharge(trx, quote);
  const params: IpAttachParams = {
    server_id: server.id, row_id: row.id, version, price_cents: unit, charged_cents: quote.chargedCents, discount_cents: quote.discountDeltaCents, idempotency_key: key,
  };
  // Keyed by the address row, not the server: the purchase blocks no other action on the server.
  const op = await startOperation(ctx, trx, {
    type: 'server.ip_attach', resourceId: String(row.id), enqueue: false, leaseS: leaseOf(ctx),
    detail: `Attaching an extra IPv${version} address to server ${server.id}`, params,
  });
  return { ref: server.provider_ref, operationId: op.id, params };
}

/** The platform call, then tx2: the address stored, or tx1 undone and the failure thrown. */
export async function attachReserved(ctx: Ctx, r: Reserved): Promise<IpEntry> {
  // The sandbox's transaction ends with the request; there is no worker to take over anyway.
  const lease = ctx.sandbox ? null : holdLease(ctx.db, r.operationId, leaseOf(ctx));
  try {
    return await attachLeased(ctx, r);
  } finally {
    lease?.release();
  }
}

async function attachLeased(ctx: Ctx, r: Reserved): Promise<IpEntry> {
  const p = r.params;
  let address: string;
  try {
    ({ address } = await ctx.compute.attachIp(r.ref, p.version, attachToken(p.row_id)));
  } catch (e) {
    const failure = providerFailure(e);
    const reason = failure instanceof Error ? failure.message : 'unknown failure';
    await finishUnlessRecovered(ctx.db, r.operationId, 'failed', reason, (trx) => undoPurchase(trx, ctx.accountId, p, reason, ctx.now));
    throw failure;
  }
  const recovered = await finishUnlessRecovered(ctx.db, r.operationId, 'completed', `Attached ${address}`, (trx) => storeAddress(trx, ctx.accountId, p, address));
  if (recovered === 'failed') throw new ApiError('UPSTREAM_ERROR', 'Attaching the address took too long and was undone; the charge was refunded');
  // 'completed': the worker attached with the same token, so the same address.
  return extraEntry({ ...p, address });
}

/** Adds an extra address of `version` to an active server and bills it from now on. */
export async function addIp(ctx: Ctx, serverId: string, version: IpVersion): Promise<IpEntry> {
  const r = await inTransaction(ctx.db, (trx) => reserveIp(ctx, trx, serverId, version));
  return attachReserved(ctx, r);
}
