// The addresses of a server: the primary pair from its network, plus extra ones (server_ips),
// each billed monthly at the ipv4/ipv6 unit price. Adding one must leave no half-written change
// whatever the platform does, yet the platform must not be called inside a transaction. So:
// tx1 pays for a row without an address and raises the price; the platform attaches (token
// "ip-<row id>", so a retried call cannot lease twice); tx2 stores the address, or undoes tx1.
import { addToServerPrice, countHeldIps, insertPendingIp, lockServerRow, markIpReleased, setIpAddress } from '../../db/queries/server-ips.ts';
import { listServerIps, lockAccountServer } from '../../db/queries/servers.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Server, ServerIp } from '../../db/schema.ts';
import { charge, refund } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { type Cents, formatCents, prorate } from '../money.ts';
import type { PageRequest, Paged } from '../pagination.ts';
import type { Db } from '../types.ts';
import { unitPrice } from './pricing.ts';
import { requireServer } from './read.ts';
import { cycleHours } from './rules.ts';
import { providerFailure } from './upstream.ts';

export type IpVersion = 4 | 6;

/** Addresses of one family a server may hold, primary included (the create limit, ipv4_count ≤ 16). */
export const MAX_ADDRESSES_PER_FAMILY = 16;

export interface IpEntry {
  address: string;
  version: IpVersion;
  type: 'primary' | 'extra';
  gateway: string | null;
  /** What the address adds to the monthly bill; null for a primary one (part of the server's price). */
  monthlyPriceCents: Cents | null;
}

function primaryIps(server: Server): IpEntry[] {
  const out: IpEntry[] = [];
  const { ipv4, ipv6 } = server.network ?? { ipv4: null, ipv6: null };
  if (ipv4) out.push({ address: ipv4.address, version: 4, type: 'primary', gateway: ipv4.gateway, monthlyPriceCents: null });
  if (ipv6) out.push({ address: ipv6.address, version: 6, type: 'primary', gateway: ipv6.gateway, monthlyPriceCents: null });
  return out;
}

const extraEntry = (ip: ServerIp & { address: string }): IpEntry =>
  ({ address: ip.address, version: ip.version, type: 'extra', gateway: null, monthlyPriceCents: ip.price_cents });

/** Primary addresses first, then extra ones in the order they were added. */
export async function listIps(ctx: Ctx, serverId: string, page: PageRequest): Promise<Paged<IpEntry>> {
  const server = await requireServer(ctx, serverId);
  const extras = (await listServerIps(ctx.db, server.id)).filter((ip): ip is ServerIp & { address: string } => ip.address !== null);
  const all = [...primaryIps(server), ...extras.map(extraEntry)];
  const start = (page.page - 1) * page.perPage;
  return { items: all.slice(start, start + page.perPage), total: all.length, ...page };
}

export interface Reserved {
  server: Server;
  row: ServerIp;
  charged: Cents;
}

/** tx1: checks in DESIGN.md's order, then the row without an address, the raised price and the charge. */
export async function reserveIp(ctx: Ctx, trx: Db, serverId: string, version: IpVersion): Promise<Reserved> {
  const server = await lockAccountServer(trx, ctx.accountId, serverId);
  if (!server) throw notFound('Server');
  if (server.status !== 'active' || server.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', `Server ${server.id} is ${server.status}; addresses can be added to an active server only`);
  }
  const primary = primaryIps(server).filter((ip) => ip.version === version).length;
  if (primary + (await countHeldIps(trx, server.id, version)) >= MAX_ADDRESSES_PER_FAMILY) {
    throw new ApiError('QUOTA_EXCEEDED', `Server ${server.id} already has ${MAX_ADDRESSES_PER_FAMILY} IPv${version} addresses, the most a server may hold`);
  }
  const unit = await unitPrice(trx, version === 4 ? 'ipv4' : 'ipv6');
  const { period, remaining } = cycleHours(server.period_started_at, server.next_billing_at, ctx.now);
  const due = prorate(unit, remaining, period);
  const row = await insertPendingIp(trx, { server_id: server.id, version, price_cents: unit });
  if (unit > 0) await addToServerPrice(trx, server.id, unit);
  if (due > 0) {
    await charge(trx, ctx.accountId, due,
      `Server ${server.name} (${server.id}): extra IPv${version} address, ${remaining} of ${period} hours of this cycle, ${formatCents(due)} USD`);
  }
  return { server, row, charged: due };
}

async function undo(ctx: Ctx, trx: Db, r: Reserved, reason: string): Promise<void> {
  await markIpReleased(trx, r.row.id, ctx.now);
  const server = await lockServerRow(trx, r.server.id);
  // A delete that committed meanwhile already refunded the unused period of the raised price.
  if (!server || server.deleted_at) return;
  if (r.row.price_cents > 0) await addToServerPrice(trx, server.id, -r.row.price_cents);
  if (r.charged > 0) {
    await refund(trx, ctx.accountId, r.charged, `Refund: extra IPv${r.row.version} address for server ${server.name} (${server.id}) could not be attached (${reason})`);
  }
}

/** Extra work committed with tx2: on success with the address, on failure with the undo. */
export interface AttachHooks {
  attached?(trx: Db, entry: IpEntry): Promise<void>;
  failed?(trx: Db): Promise<void>;
}

/** The platform call, then tx2: the address stored, or tx1 undone and the failure thrown. */
export async function attachReserved(ctx: Ctx, r: Reserved, hooks: AttachHooks = {}): Promise<IpEntry> {
  let address: string;
  try {
    ({ address } = await ctx.compute.attachIp(r.server.provider_ref!, r.row.version, `ip-${r.row.id}`));
  } catch (e) {
    const failure = providerFailure(e);
    await inTransaction(ctx.db, async (trx) => {
      await undo(ctx, trx, r, failure instanceof Error ? failure.message : 'unknown failure');
      await hooks.failed?.(trx);
    });
    throw failure;
  }
  const entry = extraEntry({ ...r.row, address });
  await inTransaction(ctx.db, async (trx) => {
    await setIpAddress(trx, r.row.id, address);
    await hooks.attached?.(trx, entry);
  });
  return entry;
}

/** Adds an extra address of `version` to an active server and bills it from now on. */
export async function addIp(ctx: Ctx, serverId: string, version: IpVersion): Promise<IpEntry> {
  const r = await inTransaction(ctx.db, (trx) => reserveIp(ctx, trx, serverId, version));
  return attachReserved(ctx, r);
}
