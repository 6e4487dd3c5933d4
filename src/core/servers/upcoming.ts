// What recurring billing will charge for servers (the servers family's RecurringCharges,
// src/core/billing/upcoming.ts): each server's monthly cycle, quoted as the pass would charge it
// (snapshot fees and the reseller discount included), and its parts.
import { accountServersForBilling, snapshotFeesCents } from '../../db/queries/billing.ts';
import { findTierDiscount } from '../../db/queries/reseller.ts';
import { extraIpsMonthlyCents, findAccountServer } from '../../db/queries/servers.ts';
import type { Server } from '../../db/schema.ts';
import { periodEnd } from '../billing/periods.ts';
import { type ChargePart, type RecurringCharges, type UpcomingCharge, periodsUntil } from '../billing/upcoming.ts';
import type { Cents } from '../money.ts';
import { basisPoints } from '../reseller/discount.ts';
import { quoteAt, quoteServerCharge } from './charge.ts';
import { serverPass } from './billing.ts';

export const serverCharges: RecurringCharges = {
  pass: serverPass,
  async upcoming(ctx, { until, overdue }) {
    const servers = await accountServersForBilling(ctx.db, ctx.accountId);
    const charges: UpcomingCharge[] = [];
    for (const s of servers) {
      if (overdue.has(`server/${s.id}`)) continue;
      const fees = await snapshotFeesCents(ctx.db, s.id);
      for (const [start, end] of periodsUntil(s.next_billing_at, until, (d) => periodEnd(d, 'monthly', s.created_at))) {
        const q = await quoteServerCharge(ctx.db, { accountId: ctx.accountId, fromCents: 0, toCents: s.price_cents + fees, resource: `server/${s.id}`, description: `Server ${s.name} (${s.id}): monthly cycle` });
        charges.push({ resourceType: 'server', resourceId: s.id, name: s.name, description: q.description, amountCents: q.chargedCents, dueAt: start, periodStart: start, periodEnd: end, status: 'scheduled' });
      }
    }
    return { names: servers.map((s) => [`server/${s.id}`, s.name] as const), charges };
  },
  async next(ctx, id) {
    const s = await findAccountServer(ctx.db, ctx.accountId, id);
    if (!s) return null;
    const [fees, ips, pct] = await Promise.all([snapshotFeesCents(ctx.db, s.id), extraIpsMonthlyCents(ctx.db, s.id), findTierDiscount(ctx.db, ctx.accountId)]);
    return serverNextCharge(s, { due: null, extraIpsCents: ips, snapshotFeesCents: fees, tierDiscount: pct });
  },
};

/** What a server's next charge is made of; the detail reads them with the server, in one round trip. */
export interface ServerChargeFacts {
  /** The oldest charge still due, if any. */
  due: { description: string; amountCents: Cents; dueSince: Date; periodStart: Date; periodEnd: Date } | null;
  /** The monthly price of its extra addresses (part of the server's `price_cents`). */
  extraIpsCents: Cents;
  snapshotFeesCents: Cents;
  /** The discount percentage of the account's reseller tier; null: none. */
  tierDiscount: string | null;
}

/** The server's next charge as its detail shows it, from facts already read (see nextChargeOf). */
export function serverNextCharge(s: Pick<Server, 'id' | 'account_id' | 'name' | 'status' | 'price_cents' | 'next_billing_at' | 'created_at'>, facts: ServerChargeFacts): UpcomingCharge | null {
  const base = { resourceType: 'server' as const, resourceId: s.id, name: '' };
  if (facts.due) {
    const d = facts.due;
    return { ...base, description: d.description, amountCents: d.amountCents, dueAt: d.dueSince, periodStart: d.periodStart, periodEnd: d.periodEnd, status: 'overdue' };
  }
  if (s.status !== 'active' && s.status !== 'suspended') return null;
  const q = quoteAt({ accountId: s.account_id, fromCents: 0, toCents: s.price_cents + facts.snapshotFeesCents, resource: `server/${s.id}`, description: `Server ${s.name} (${s.id}): monthly cycle` },
    facts.tierDiscount === null ? 0 : basisPoints(facts.tierDiscount));
  return {
    ...base, description: q.description, amountCents: q.chargedCents, dueAt: s.next_billing_at,
    periodStart: s.next_billing_at, periodEnd: periodEnd(s.next_billing_at, 'monthly', s.created_at), status: 'scheduled',
    breakdown: serverChargeParts(s.price_cents, facts.extraIpsCents, facts.snapshotFeesCents, q.chargedCents),
  };
}

/**
 * A server's monthly charge in parts: the machine (its price without the extra addresses), its
 * extra addresses, its snapshots, and the reseller discount taken off the whole (whatever the
 * quote took, so the parts add up to `chargedCents` to the cent). Parts of 0 are left out, but
 * the server's own.
 */
export function serverChargeParts(priceCents: Cents, extraIpsCents: Cents, snapshotFeesCents: Cents, chargedCents: Cents): ChargePart[] {
  const machine = Math.max(0, priceCents - extraIpsCents);
  const parts: ChargePart[] = [{ part: 'server', cents: machine }];
  if (priceCents - machine > 0) parts.push({ part: 'extra_ips', cents: priceCents - machine });
  if (snapshotFeesCents > 0) parts.push({ part: 'snapshots', cents: snapshotFeesCents });
  const discount = chargedCents - (priceCents + snapshotFeesCents);
  if (discount !== 0) parts.push({ part: 'reseller_discount', cents: discount });
  return parts;
}
