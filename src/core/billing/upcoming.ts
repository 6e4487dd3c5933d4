// What the customer will be charged in the next 30 days, per resource and period, with what is
// already overdue: what a customer needs to top up in time (GET /v2/billing/upcoming). Read only;
// the amounts are quoted exactly as the pass would charge them now (reseller discount included).
import { findAccount } from '../../db/queries/accounts.ts';
import { findTldPrices } from '../../db/queries/catalog.ts';
import { accountDomainsForBilling, accountHostingForBilling, accountServersForBilling, findDueCharge, listDueCharges, snapshotFeesCents } from '../../db/queries/billing.ts';
import { findAccountDomain } from '../../db/queries/domains.ts';
import { extraIpsMonthlyCents, findAccountServer } from '../../db/queries/servers.ts';
import { findAccountWebHosting } from '../../db/queries/web-hosting.ts';
import { findPool } from '../../db/queries/vdc-pools.ts';
import type { BillableType, Server } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { addYears } from '../domains/rules.ts';
import { notFound } from '../errors.ts';
import type { Cents } from '../money.ts';
import { quoteAt, quoteServerCharge } from '../servers/charge.ts';
import { basisPoints } from '../reseller/discount.ts';
import { findTierDiscount } from '../../db/queries/reseller.ts';
import { addDays, periodEnd } from './periods.ts';

/** What is billed (the resource types of charges), for the API's enum. */
export { BILLABLE_TYPES } from '../../db/schema-billing.ts';

export const UPCOMING_DAYS = 30;

export interface UpcomingCharge {
  resourceType: BillableType;
  resourceId: string;
  name: string;
  description: string;
  amountCents: Cents;
  /** When the pass charges it; for an overdue charge, since when it is due. */
  dueAt: Date;
  periodStart: Date;
  periodEnd: Date;
  status: 'scheduled' | 'overdue';
  /**
   * What the amount is made of, parts that add up to it exactly (a discount is a negative part).
   * Only for a server's scheduled charge: an overdue one was fixed when it fell due.
   */
  breakdown?: ChargePart[];
}

/** The parts of a server's monthly charge, in the order they are shown. */
export const CHARGE_PARTS = ['server', 'extra_ips', 'snapshots', 'reseller_discount'] as const;
export interface ChargePart {
  part: (typeof CHARGE_PARTS)[number];
  cents: Cents;
}

export interface Upcoming {
  charges: UpcomingCharge[];
  totalCents: Cents;
  balanceCents: Cents;
  /** What to deposit so that every listed charge is covered (0 when the balance does). */
  shortfallCents: Cents;
  until: Date;
}

/** Periods of a cycle that start by `until`, from `start`. */
function periodsUntil(start: Date, until: Date, next: (d: Date) => Date): [Date, Date][] {
  const out: [Date, Date][] = [];
  for (let s = start; s.getTime() <= until.getTime() && out.length < 12; s = next(s)) out.push([s, next(s)]);
  return out;
}

export async function upcomingCharges(ctx: Ctx, domainRenewDays: number): Promise<Upcoming> {
  const account = await findAccount(ctx.db, ctx.accountId);
  if (!account) throw notFound('Account');
  const until = addDays(ctx.now, UPCOMING_DAYS);
  const charges: UpcomingCharge[] = [];
  const due = await listDueCharges(ctx.db, ctx.accountId);
  const overdue = new Set(due.map((c) => `${c.resource_type}/${c.resource_id}`));
  const [servers, hosting, domains, pool] = await Promise.all([
    accountServersForBilling(ctx.db, ctx.accountId), accountHostingForBilling(ctx.db, ctx.accountId),
    accountDomainsForBilling(ctx.db, ctx.accountId), findPool(ctx.db, ctx.accountId),
  ]);
  const names = new Map<string, string>([
    ...servers.map((s) => [`server/${s.id}`, s.name] as const), ...hosting.map((h) => [`web_hosting/${h.id}`, h.domain] as const),
    ...domains.map((d) => [`domain/${d.id}`, d.name] as const),
  ]);
  for (const c of due) {
    const key = `${c.resource_type}/${c.resource_id}`;
    charges.push({
      resourceType: c.resource_type, resourceId: c.resource_id, name: names.get(key) ?? (c.resource_type === 'vdc_pool' ? 'VDC resource pool' : c.resource_id),
      description: c.description, amountCents: c.amount_cents, dueAt: c.due_since, periodStart: c.period_start, periodEnd: c.period_end, status: 'overdue',
    });
  }
  for (const s of servers) {
    if (overdue.has(`server/${s.id}`)) continue;
    const fees = await snapshotFeesCents(ctx.db, s.id);
    for (const [start, end] of periodsUntil(s.next_billing_at, until, (d) => periodEnd(d, 'monthly', s.created_at))) {
      const q = await quoteServerCharge(ctx.db, { accountId: ctx.accountId, fromCents: 0, toCents: s.price_cents + fees, resource: `server/${s.id}`, description: `Server ${s.name} (${s.id}): monthly cycle` });
      charges.push({ resourceType: 'server', resourceId: s.id, name: s.name, description: q.description, amountCents: q.chargedCents, dueAt: start, periodStart: start, periodEnd: end, status: 'scheduled' });
    }
  }
  for (const h of hosting) {
    if (overdue.has(`web_hosting/${h.id}`)) continue;
    for (const [start, end] of periodsUntil(h.next_billing_at, until, (d) => periodEnd(d, h.billing_cycle, h.created_at))) {
      charges.push({
        resourceType: 'web_hosting', resourceId: h.id, name: h.domain, description: `Web hosting ${h.domain} (${h.id}): ${h.billing_cycle} cycle`,
        amountCents: h.price_cents, dueAt: start, periodStart: start, periodEnd: end, status: 'scheduled',
      });
    }
  }
  const prices = domains.length ? await findTldPrices(ctx.db, [...new Set(domains.map((d) => d.tld))]) : [];
  for (const d of domains) {
    if (!d.expires_at || overdue.has(`domain/${d.id}`)) continue;
    const renewAt = addDays(d.expires_at, -domainRenewDays);
    if (renewAt.getTime() > until.getTime()) continue;
    const cents = prices.find((p) => p.tld === d.tld)?.renewal_cents ?? 0;
    charges.push({
      resourceType: 'domain', resourceId: d.id, name: d.name, description: `Domain ${d.name} (${d.service_id}): auto-renewal for 1 year`,
      amountCents: cents, dueAt: renewAt.getTime() < ctx.now.getTime() ? ctx.now : renewAt, periodStart: d.expires_at, periodEnd: addYears(d.expires_at, 1), status: 'scheduled',
    });
  }
  if (pool && pool.monthly_price_cents !== null && !overdue.has(`vdc_pool/${ctx.accountId}`)) {
    const anchor = pool.billing_anchor_at ?? pool.next_billing_at ?? ctx.now;
    for (const [start, end] of periodsUntil(pool.next_billing_at ?? ctx.now, until, (d) => periodEnd(d, 'monthly', anchor))) {
      charges.push({
        resourceType: 'vdc_pool', resourceId: ctx.accountId, name: 'VDC resource pool', description: 'VDC resource pool: monthly cycle',
        amountCents: pool.monthly_price_cents, dueAt: start, periodStart: start, periodEnd: end, status: 'scheduled',
      });
    }
  }
  charges.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.resourceId.localeCompare(b.resourceId));
  const totalCents = charges.reduce((sum, c) => sum + c.amountCents, 0);
  return { charges, totalCents, balanceCents: account.balance_cents, shortfallCents: Math.max(0, totalCents - account.balance_cents), until };
}

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

/**
 * The next charge of one resource, as its detail shows it: the overdue one, else the next the pass
 * will make; null when none is planned (a domain without auto-renewal, a cancelled service).
 */
export async function nextChargeOf(ctx: Ctx, type: 'server' | 'web_hosting' | 'domain', id: string, domainRenewDays: number): Promise<UpcomingCharge | null> {
  const due = await findDueCharge(ctx.db, ctx.accountId, type, id);
  if (due) {
    return {
      resourceType: type, resourceId: id, name: '', description: due.description, amountCents: due.amount_cents, dueAt: due.due_since,
      periodStart: due.period_start, periodEnd: due.period_end, status: 'overdue',
    };
  }
  const scheduled = (description: string, amountCents: Cents, dueAt: Date, start: Date, end: Date): UpcomingCharge => ({
    resourceType: type, resourceId: id, name: '', description, amountCents, dueAt, periodStart: start, periodEnd: end, status: 'scheduled',
  });
  if (type === 'server') {
    const s = await findAccountServer(ctx.db, ctx.accountId, id);
    if (!s) return null;
    const [fees, ips, pct] = await Promise.all([snapshotFeesCents(ctx.db, s.id), extraIpsMonthlyCents(ctx.db, s.id), findTierDiscount(ctx.db, ctx.accountId)]);
    return serverNextCharge(s, { due: null, extraIpsCents: ips, snapshotFeesCents: fees, tierDiscount: pct });
  }
  if (type === 'web_hosting') {
    const h = await findAccountWebHosting(ctx.db, ctx.accountId, id);
    if (!h || (h.status !== 'active' && h.status !== 'suspended')) return null;
    return scheduled(`Web hosting ${h.domain} (${id}): ${h.billing_cycle} cycle`, h.price_cents, h.next_billing_at, h.next_billing_at, periodEnd(h.next_billing_at, h.billing_cycle, h.created_at));
  }
  const d = await findAccountDomain(ctx.db, ctx.accountId, id);
  if (!d || d.status !== 'active' || !d.auto_renew || !d.expires_at) return null;
  const [price] = await findTldPrices(ctx.db, [d.tld]);
  const renewAt = addDays(d.expires_at, -domainRenewDays);
  return scheduled(`Domain ${d.name} (${d.service_id}): auto-renewal for 1 year`, price?.renewal_cents ?? 0,
    renewAt.getTime() < ctx.now.getTime() ? ctx.now : renewAt, d.expires_at, addYears(d.expires_at, 1));
}
