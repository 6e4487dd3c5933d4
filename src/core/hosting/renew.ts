// Renewing web hosting: one more cycle paid now. Only an active account renews (a pending one is
// not provisioned yet, a suspended or cancelled one is not running); the row is locked while it is
// checked, charged and moved, so two renewals at once each add their own cycle.
import { findAccountWebHosting, lockAccountWebHosting, updateWebHosting, type WebHostingRow } from '../../db/queries/web-hosting.ts';
import { charge } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { suspendedConflict } from '../billing/suspension.ts';
import { ApiError, notFound } from '../errors.ts';
import { formatCents } from '../money.ts';
import { ts } from '../time.ts';
import type { Db } from '../types.ts';
import { addCycle } from './rules.ts';

/** Charges one cycle of hosting account `id` and moves `next_billing_at` one cycle, in `trx`. */
export async function renewHosting(ctx: Ctx, trx: Db, id: string): Promise<{ hosting: WebHostingRow; chargedCents: number }> {
  const row = await lockAccountWebHosting(trx, ctx.accountId, id);
  if (!row) throw notFound('Web hosting account');
  if (row.status !== 'active') throw new ApiError('STATE_CONFLICT', suspendedConflict('Web hosting', id, row.status) ?? `Web hosting ${id} is ${row.status}; only an active account can be renewed`);
  const until = addCycle(row.next_billing_at, row.billing_cycle);
  if (row.price_cents > 0) {
    await charge(trx, ctx.accountId, row.price_cents,
      `Web hosting ${row.domain} (${id}): renewal, one ${row.billing_cycle} cycle to ${ts(until)}, ${formatCents(row.price_cents)} USD`, `web_hosting/${id}`);
  }
  await updateWebHosting(trx, id, { next_billing_at: until, last_charge_cents: row.price_cents });
  return { hosting: (await findAccountWebHosting(trx, ctx.accountId, id))!, chargedCents: row.price_cents };
}
