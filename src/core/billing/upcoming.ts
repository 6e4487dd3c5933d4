// What the customer will be charged in the next 30 days, per resource and period, with what is
// already overdue: what a customer needs to top up in time (GET /v2/billing/upcoming). Read only;
// the amounts are quoted exactly as the pass would charge them now (reseller discount included).
// Each billable family says what it will charge (its manifest's `billable` hooks, RecurringCharges:
// src/core/servers/upcoming.ts and its siblings); this file adds the overdue charges and the sums.
import { findAccount } from '../../db/queries/accounts.ts';
import { findDueCharge, listDueCharges } from '../../db/queries/billing.ts';
import type { BillableType } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Cents } from '../money.ts';
import type { RecurringPass } from './deps.ts';
import { addDays } from './periods.ts';

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
export function periodsUntil(start: Date, until: Date, next: (d: Date) => Date): [Date, Date][] {
  const out: [Date, Date][] = [];
  for (let s = start; s.getTime() <= until.getTime() && out.length < 12; s = next(s)) out.push([s, next(s)]);
  return out;
}

/** What a family's scheduled charges are worked out from. */
export interface UpcomingQuery {
  until: Date;
  /** `<type>/<id>` of every resource with a charge due: the pass charges that one first, so it schedules nothing more. */
  overdue: ReadonlySet<string>;
  domainRenewDays: number;
}

/** What recurring billing will charge a family for one of its billable types, and how (its manifest's `billable`). */
export interface RecurringCharges {
  /**
   * The account's resources of the type: each one's name (`<type>/<id>` → name, for the overdue
   * charges too) and the charges the pass will make of it until `q.until`.
   */
  upcoming(ctx: Ctx, q: UpcomingQuery): Promise<{ names: (readonly [string, string])[]; charges: UpcomingCharge[] }>;
  /** The next charge of one resource as its detail shows it when none is overdue; null when none is planned. Absent: the type has no detail showing one. */
  next?(ctx: Ctx, id: string, domainRenewDays: number): Promise<UpcomingCharge | null>;
  /** Its part of the billing pass, which charges it (src/core/billing/pass.ts runs every registered type's). */
  pass: RecurringPass;
}

/** Every billable type's hooks (src/core/families.ts BILLABLE_HOOKS, handed in by the route). */
export type RecurringChargesByType = Readonly<Partial<Record<BillableType, RecurringCharges>>>;

export async function upcomingCharges(ctx: Ctx, domainRenewDays: number, hooks: RecurringChargesByType): Promise<Upcoming> {
  const account = await findAccount(ctx.db, ctx.accountId);
  if (!account) throw notFound('Account');
  const until = addDays(ctx.now, UPCOMING_DAYS);
  const charges: UpcomingCharge[] = [];
  const due = await listDueCharges(ctx.db, ctx.accountId);
  const overdue = new Set(due.map((c) => `${c.resource_type}/${c.resource_id}`));
  const parts = await Promise.all(Object.values(hooks).map((h) => h.upcoming(ctx, { until, overdue, domainRenewDays })));
  const names = new Map<string, string>(parts.flatMap((p) => p.names));
  for (const c of due) {
    const key = `${c.resource_type}/${c.resource_id}`;
    charges.push({
      resourceType: c.resource_type, resourceId: c.resource_id, name: names.get(key) ?? c.resource_id,
      description: c.description, amountCents: c.amount_cents, dueAt: c.due_since, periodStart: c.period_start, periodEnd: c.period_end, status: 'overdue',
    });
  }
  for (const p of parts) charges.push(...p.charges);
  charges.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.resourceId.localeCompare(b.resourceId));
  const totalCents = charges.reduce((sum, c) => sum + c.amountCents, 0);
  return { charges, totalCents, balanceCents: account.balance_cents, shortfallCents: Math.max(0, totalCents - account.balance_cents), until };
}

/**
 * The next charge of one resource, as its detail shows it: the overdue one, else the next the pass
 * will make (its family's `next`); null when none is planned (a domain without auto-renewal, a cancelled service).
 */
export async function nextChargeOf(ctx: Ctx, type: BillableType, hooks: RecurringCharges, id: string, domainRenewDays: number): Promise<UpcomingCharge | null> {
  const due = await findDueCharge(ctx.db, ctx.accountId, type, id);
  if (due) {
    return {
      resourceType: type, resourceId: id, name: '', description: due.description, amountCents: due.amount_cents, dueAt: due.due_since,
      periodStart: due.period_start, periodEnd: due.period_end, status: 'overdue',
    };
  }
  return hooks.next ? hooks.next(ctx, id, domainRenewDays) : null;
}
