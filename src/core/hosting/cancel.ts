// Cancelling web hosting. In one transaction: the account is cancelled (billing stops, the domain
// is free for a new order), `refund: true` gives back the last charged cycle in full, `send_email`
// queues the notice through the outbox, `reason` is kept, and the `hosting.cancel` operation is
// queued to terminate the panel account. The panel is not called while the customer waits: the
// operation retries a panel that is down (with backoff, JOB_RETRY_LIMIT times), and survives a
// worker that dies — the customer's side is settled at once, the panel's follows.
import { domainToUnicode } from 'node:url';
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import { findAccountWebHosting, lockAccountWebHosting, updateWebHosting, type WebHostingRow } from '../../db/queries/web-hosting.ts';
import type { Operation } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { refund } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { formatCents } from '../money.ts';
import { queueNotification } from '../notifications/queue.ts';
import { operationRunning, startOperation } from '../operations/service.ts';

export interface CancelHostingInput {
  /** true: the last charged cycle comes back in full. Default false. */
  refund?: boolean;
  /** true: a notice goes to the account's email. Default false. */
  send_email?: boolean;
  reason?: string;
}

export interface CancelledHosting {
  hosting: WebHostingRow;
  refundCents: number;
  operation: Operation;
}

function noticeBody(h: WebHostingRow, refundCents: number, reason: string | null): string {
  const lines = [
    `Your web hosting account for ${domainToUnicode(h.domain)} (${h.id}, ${h.package_name}) has been cancelled.`,
    'Its website, mailboxes and databases are being removed from the hosting server.',
    refundCents > 0 ? `${formatCents(refundCents)} USD, the last billing cycle, has been refunded to your balance.` : 'No refund was made.',
  ];
  if (reason) lines.push('', `Reason given: ${reason}`);
  return lines.join('\n');
}

export function cancelHosting(ctx: Ctx, id: string, input: CancelHostingInput): Promise<CancelledHosting> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await lockAccountWebHosting(trx, ctx.accountId, id);
    if (!row) throw notFound('Web hosting account');
    if (row.status === 'cancelled') throw new ApiError('STATE_CONFLICT', `Web hosting ${id} is already cancelled`);
    if (row.status === 'pending') {
      // Its create is still running; once it finishes the account is active (or cancelled and refunded).
      throw operationRunning(id, await findUnfinishedOperation(trx, 'web_hosting', id));
    }
    const reason = input.reason?.trim() || null;
    const refundCents = input.refund ? row.last_charge_cents : 0;
    await updateWebHosting(trx, id, { status: 'cancelled', cancelled_at: ctx.now, cancel_reason: reason });
    const operation = await startOperation(ctx, trx, {
      type: 'hosting.cancel', resourceId: id, detail: 'Queued: terminating the control panel account',
    });
    if (refundCents > 0) {
      await refund(trx, ctx.accountId, refundCents, `Refund: web hosting ${row.domain} (${id}) cancelled, its last ${row.billing_cycle} cycle`, `web_hosting/${id}`);
    }
    await recordEvent(trx, 'web_hosting.cancelled', ctx.accountId, id);
    const hosting = (await findAccountWebHosting(trx, ctx.accountId, id))!;
    if (input.send_email) {
      await queueNotification(trx, {
        accountId: ctx.accountId,
        kind: 'hosting.cancelled',
        subject: `Your web hosting for ${domainToUnicode(row.domain)} has been cancelled`,
        body: noticeBody(hosting, refundCents, reason),
      });
    }
    return { hosting, refundCents, operation };
  });
}
