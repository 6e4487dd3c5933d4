// DELETE /servers/{id}. One transaction: the server leaves every list and frees its name, the
// unused hours of its cycle are refunded, its extra addresses stop billing, and a server.delete
// operation is queued to destroy the machine. The operation is started first so that an action
// still running on the server refuses the delete before any money moves.
import { releaseServerIps, updateServerRow } from '../../db/queries/servers.ts';
import { inTransaction } from '../../db/transaction.ts';
import { getBalance, refund } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { type Cents, formatCents, prorate } from '../money.ts';
import { recordEvent } from '../events/record.ts';
import { startOperation } from '../operations/service.ts';
import { cycleOf, lockServer, refuseWhileBuilding } from './guards.ts';

export interface DeleteResult {
  id: string;
  refundCents: Cents;
  balanceCents: Cents;
}

export async function deleteServer(ctx: Ctx, id: string): Promise<DeleteResult> {
  return inTransaction(ctx.db, async (trx) => {
    const server = await lockServer(ctx, trx, id);
    await refuseWhileBuilding(trx, server);
    if (server.status === 'pending') {
      throw new ApiError('STATE_CONFLICT', `Server ${id} is still being provisioned; delete it once its operation has finished`);
    }
    await startOperation(ctx, trx, { type: 'server.delete', resourceId: id, detail: 'Queued for removal' });
    // A cancelled server already had its whole cycle refunded when provisioning failed.
    const { period, remaining } = cycleOf(server, ctx.now);
    // What the server pays a month: its list price less the reseller discount it holds.
    const refundCents = server.status === 'cancelled' ? 0 : prorate(Math.max(0, server.price_cents - server.discount_cents), remaining, period);
    await updateServerRow(trx, id, { deleted_at: ctx.now });
    await releaseServerIps(trx, id, ctx.now);
    if (refundCents > 0) {
      await refund(trx, ctx.accountId, refundCents,
        `Refund: server ${server.name} (${id}) deleted, ${remaining} of ${period} hours unused, ${formatCents(refundCents)} USD`, `server/${id}`);
    }
    await recordEvent(trx, 'server.deleted', ctx.accountId, id);
    return { id, refundCents, balanceCents: await getBalance(trx, ctx.accountId) };
  });
}
