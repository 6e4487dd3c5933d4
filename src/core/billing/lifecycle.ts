// What non-payment does to a service, and what paying undoes: suspend (server powered off, hosting
// suspended at the panel), resume (powered on, unsuspended), cancel after the grace period
// (machine destroyed and addresses freed, panel account terminated). Each change of state commits
// in the caller's transaction with its notice and the operation that does the provider's part, so
// the upstream call is durable (retried, survives a dead worker) and never made inside a
// transaction.
import { domainToUnicode } from 'node:url';
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import { releaseServerIps, updateServerRow } from '../../db/queries/servers.ts';
import { updateWebHosting } from '../../db/queries/web-hosting.ts';
import { voidDueCharges } from '../../db/queries/billing.ts';
import type { BillingCharge, Server, WebHosting } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { recordEvent } from '../events/record.ts';
import { formatCents } from '../money.ts';
import { queueNotification } from '../notifications/queue.ts';
import { startOperation } from '../operations/service.ts';
import { ts } from '../time.ts';
import type { Db } from '../types.ts';

const serverLabel = (s: Server) => `server ${s.name} (${s.id})`;
const hostingLabel = (h: WebHosting) => `web hosting ${domainToUnicode(h.domain)} (${h.id})`;

async function noticeChargeFailed(trx: Db, due: BillingCharge, what: string, balanceCents: number): Promise<void> {
  await recordEvent(trx, 'billing.charge_failed', due.account_id, String(due.id));
  await queueNotification(trx, {
    accountId: due.account_id,
    kind: 'billing.charge_failed',
    subject: `Payment of ${formatCents(due.amount_cents)} USD for ${what} failed`,
    body: [
      `We could not charge ${formatCents(due.amount_cents)} USD for ${what}: your balance is ${formatCents(balanceCents)} USD.`,
      `Charge: ${due.description}`,
      'Top up your balance; the charge is retried at every billing pass.',
    ].join('\n'),
  });
}

export async function suspendServer(ctx: Ctx, trx: Db, s: Server, due: BillingCharge, balanceCents: number, graceDays: number): Promise<void> {
  await updateServerRow(trx, s.id, { status: 'suspended' });
  await recordEvent(trx, 'server.suspended', s.account_id, s.id);
  if (s.provider_ref) {
    await startOperation(ctx, trx, {
      type: 'server.suspend', resourceId: s.id, params: { action: 'stop' },
      detail: 'Queued: powering off (suspended for non-payment)',
    });
  }
  await noticeChargeFailed(trx, due, serverLabel(s), balanceCents);
  await queueNotification(trx, {
    accountId: s.account_id,
    kind: 'service.suspended',
    subject: `Your ${serverLabel(s)} is suspended for non-payment`,
    body: [
      `Your ${serverLabel(s)} has been powered off and suspended: ${formatCents(due.amount_cents)} USD is due since ${ts(due.due_since)}.`,
      `A deposit that covers it resumes the server. Unpaid after ${graceDays} days, the server is cancelled and its disk destroyed.`,
    ].join('\n'),
  });
}

/** Active again; powered on when the server has a machine and nothing else runs on it (else the next pass does it). */
export async function resumeServer(ctx: Ctx, trx: Db, s: Server): Promise<boolean> {
  if (s.provider_ref && await findUnfinishedOperation(trx, 'server', s.id)) return false;
  await updateServerRow(trx, s.id, { status: 'active' });
  await recordEvent(trx, 'server.resumed', s.account_id, s.id);
  if (s.provider_ref) {
    await startOperation(ctx, trx, {
      type: 'server.resume', resourceId: s.id, params: { action: 'start' },
      detail: 'Queued: powering on (resumed: its due charge is paid)',
    });
  }
  await queueNotification(trx, {
    accountId: s.account_id, kind: 'service.resumed',
    subject: `Your ${serverLabel(s)} is resumed`, body: `Its due charge is paid; your ${serverLabel(s)} is being powered on again.`,
  });
  return true;
}

export async function cancelServer(ctx: Ctx, trx: Db, s: Server, due: BillingCharge, graceDays: number): Promise<void> {
  await updateServerRow(trx, s.id, { status: 'cancelled' });
  await releaseServerIps(trx, s.id, ctx.now);
  await voidDueCharges(trx, 'server', s.id);
  await recordEvent(trx, 'server.cancelled', s.account_id, s.id);
  if (s.provider_ref) {
    await startOperation(ctx, trx, { type: 'server.cancel', resourceId: s.id, detail: 'Queued: destroying the machine (cancelled for non-payment)' });
  }
  await queueNotification(trx, {
    accountId: s.account_id, kind: 'service.cancelled',
    subject: `Your ${serverLabel(s)} is cancelled for non-payment`,
    body: `${formatCents(due.amount_cents)} USD was due since ${ts(due.due_since)} and stayed unpaid for ${graceDays} days: your ${serverLabel(s)} is cancelled, its machine destroyed and its addresses released. Nothing more is owed for it.`,
  });
}

export async function suspendHosting(ctx: Ctx, trx: Db, h: WebHosting, due: BillingCharge, balanceCents: number, graceDays: number): Promise<void> {
  await updateWebHosting(trx, h.id, { status: 'suspended' });
  await recordEvent(trx, 'web_hosting.suspended', h.account_id, h.id);
  if (h.panel_ref) {
    await startOperation(ctx, trx, { type: 'hosting.suspend', resourceId: h.id, detail: 'Queued: suspending the control panel account (non-payment)' });
  }
  await noticeChargeFailed(trx, due, hostingLabel(h), balanceCents);
  await queueNotification(trx, {
    accountId: h.account_id, kind: 'service.suspended',
    subject: `Your ${hostingLabel(h)} is suspended for non-payment`,
    body: [
      `Your ${hostingLabel(h)} is suspended at the control panel: ${formatCents(due.amount_cents)} USD is due since ${ts(due.due_since)}.`,
      `A deposit that covers it resumes it. Unpaid after ${graceDays} days, the account is cancelled and its files removed.`,
    ].join('\n'),
  });
}

export async function resumeHosting(ctx: Ctx, trx: Db, h: WebHosting): Promise<boolean> {
  if (h.panel_ref && await findUnfinishedOperation(trx, 'web_hosting', h.id)) return false;
  await updateWebHosting(trx, h.id, { status: 'active' });
  await recordEvent(trx, 'web_hosting.resumed', h.account_id, h.id);
  if (h.panel_ref) {
    await startOperation(ctx, trx, { type: 'hosting.unsuspend', resourceId: h.id, detail: 'Queued: unsuspending the control panel account' });
  }
  await queueNotification(trx, {
    accountId: h.account_id, kind: 'service.resumed',
    subject: `Your ${hostingLabel(h)} is resumed`, body: `Its due charge is paid; your ${hostingLabel(h)} is active again.`,
  });
  return true;
}

export async function cancelHostingUnpaid(ctx: Ctx, trx: Db, h: WebHosting, due: BillingCharge, graceDays: number): Promise<void> {
  await updateWebHosting(trx, h.id, { status: 'cancelled', cancelled_at: ctx.now, cancel_reason: `Unpaid for ${graceDays} days` });
  await voidDueCharges(trx, 'web_hosting', h.id);
  await recordEvent(trx, 'web_hosting.cancelled', h.account_id, h.id);
  await startOperation(ctx, trx, { type: 'hosting.cancel', resourceId: h.id, detail: 'Queued: terminating the control panel account (cancelled for non-payment)' });
  await queueNotification(trx, {
    accountId: h.account_id, kind: 'service.cancelled',
    subject: `Your ${hostingLabel(h)} is cancelled for non-payment`,
    body: `${formatCents(due.amount_cents)} USD was due since ${ts(due.due_since)} and stayed unpaid for ${graceDays} days: your ${hostingLabel(h)} is cancelled and its control panel account terminated. Nothing more is owed for it.`,
  });
}

export { noticeChargeFailed };
