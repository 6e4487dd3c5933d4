// Billing periods, in UTC. A period ends on the anchor's day of month (its first billed day), or
// the month's last day when the month is shorter — and comes back to the anchor day the month
// after: a cycle started on 31 January runs to 28 (or 29) February, then to 31 March. Time of
// day is the anchor's, so a period is whole days and a DST change anywhere changes nothing.
import type { BillingCycle } from '../../db/schema.ts';

function lastDayOf(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `from` plus `months` whole months, on the anchor's day (clamped) and time. */
export function addMonthsAnchored(from: Date, months: number, anchor: Date): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), lastDayOf(year, month));
  return new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds()));
}

/** The end of the period that starts at `start`, for a cycle anchored at `anchor`. */
export function periodEnd(start: Date, cycle: BillingCycle, anchor: Date): Date {
  return addMonthsAnchored(start, cycle === 'yearly' ? 12 : 1, anchor);
}

/** "2026-12-01 → 2027-01-01": how the ledger names a period. */
export function periodLabel(start: Date, end: Date): string {
  return `${start.toISOString().slice(0, 10)} → ${end.toISOString().slice(0, 10)}`;
}

const DAY_MS = 86_400_000;

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}
