// The operator's resend of one notice (POST /admin/v1/notifications/{id}/resend). A failed notice
// is queued again in place, so it leaves the failed list; a sent one is copied as a new queued
// notice, so the outbox keeps the record of what already went out. A queued one is the worker's
// still (it may be mid-send under its claim): 409, rather than a second copy racing the first.
import { insertNotification, lockNotification, requeueNotification } from '../../db/queries/notifications.ts';
import type { Notification } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Db } from '../types.ts';

export interface Resent {
  notification: Notification;
  /** `requeued`: the failed notice itself; `copied`: a new notice with the sent one's content. */
  outcome: 'requeued' | 'copied';
}

export function resendNotification(db: Db, id: number): Promise<Resent> {
  return inTransaction(db, async (trx) => {
    const n = await lockNotification(trx, id);
    if (!n) throw notFound('Notification');
    if (n.status === 'queued') {
      throw new ApiError('STATE_CONFLICT', `Notification ${id} is queued already; the worker sends it at its next attempt`);
    }
    if (n.status === 'failed') return { notification: await requeueNotification(trx, id), outcome: 'requeued' as const };
    const copy = await insertNotification(trx, { account_id: n.account_id, kind: n.kind, to_email: n.to_email, subject: n.subject, body: n.body });
    return { notification: copy, outcome: 'copied' as const };
  });
}
