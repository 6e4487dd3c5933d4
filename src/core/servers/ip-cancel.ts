// Cancelling an extra address. One transaction: the address stops billing (the server's monthly
// price drops by it), the unused hours of this cycle are refunded, its reverse DNS is forgotten,
// and a server.ip_release operation is queued that gives the address back at the platform (the
// platform is never called inside a transaction; the operation makes the release durable).
import { saveServerReverseDns } from '../../db/queries/reverse-dns.ts';
import { writePtr } from '../dns/reverse.ts';
import { addToServerPrice, markIpReleased } from '../../db/queries/server-ips.ts';
import type { Operation } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { getBalance, refund } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { type Cents, formatCents, prorate } from '../money.ts';
import { startOperation } from '../operations/service.ts';
import { requireAddress } from './addresses.ts';
import type { IpReleaseParams } from './runners/server.ip_release.ts';
import { cycleOf, lockServer } from './guards.ts';

export const IP_RELEASE_OPERATION = 'server.ip_release';

export interface IpCancelResult {
  address: string;
  version: 4 | 6;
  refundCents: Cents;
  /** The server's monthly price after the cancel. */
  monthlyPriceCents: Cents;
  balanceCents: Cents;
  operation: Operation;
}

export async function cancelIp(ctx: Ctx, serverId: string, addressText: string): Promise<IpCancelResult> {
  return inTransaction(ctx.db, async (trx) => {
    const server = await lockServer(ctx, trx, serverId);
    const held = await requireAddress(trx, server, addressText);
    if (held.type === 'primary' || held.rowId === null) {
      throw new ApiError('STATE_CONFLICT', `${held.address} is the primary IPv${held.version} address of server ${server.id}; only extra addresses can be cancelled`);
    }
    const params: IpReleaseParams = { server_id: server.id, address: held.address };
    const operation = await startOperation(ctx, trx, {
      type: IP_RELEASE_OPERATION, resourceId: String(held.rowId), params,
      detail: `Queued: release ${held.address} of server ${server.id}`,
    });
    await markIpReleased(trx, held.rowId, ctx.now);
    // The share of the reseller discount the server holds that this address brought (as the purchase added it).
    const discountShare = server.price_cents > 0 ? Math.floor(server.discount_cents * held.priceCents / server.price_cents) : 0;
    await addToServerPrice(trx, server.id, -held.priceCents, -discountShare);
    // A suspended server's current cycle is unpaid: nothing of it is refunded.
    const { period, remaining } = cycleOf(server, ctx.now);
    const refundCents = server.status === 'active' ? prorate(Math.max(0, held.priceCents - discountShare), remaining, period) : 0;
    if (refundCents > 0) {
      await refund(trx, ctx.accountId, refundCents,
        `Refund: extra IPv${held.version} address ${held.address} of server ${server.name} (${server.id}) cancelled, ${remaining} of ${period} hours unused, ${formatCents(refundCents)} USD`,
        `server/${server.id}`);
    }
    await saveServerReverseDns(trx, server.id, held.address, null, ctx.now);
    await writePtr(trx, held.address, null, ctx.now);
    return {
      address: held.address, version: held.version, refundCents, monthlyPriceCents: Math.max(0, server.price_cents - held.priceCents),
      balanceCents: await getBalance(trx, ctx.accountId), operation,
    };
  });
}
