// Pure arithmetic of reseller discounts. Percentages are numeric(5,2) in the catalog ("12.50"), read
// as integer basis points so no float ever touches money; a discount is rounded down to the cent
// (the reseller never gets more off than the percentage gives).
import type { Cents } from '../money.ts';

export const DISCOUNT_TYPE = 'percentage';

export interface Tier {
  min_servers: number;
  max_servers: number | null;
  /** numeric(5,2) as text, e.g. "10.00". */
  discount_percentage: string;
}

/** "12.5" | "12.50" | "10" → 1250 | 1250 | 1000. */
export function basisPoints(percentage: string): number {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percentage.trim());
  if (!m) throw new RangeError(`not a percentage: ${percentage}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 1000 → 10, 1250 → 12.5: the percentage as the API shows it (a JSON number). */
export function percentOf(bp: number): number {
  return bp / 100;
}

/** The discount on `cents`, rounded down to the cent. */
export function discountOf(cents: Cents, bp: number): Cents {
  if (cents <= 0 || bp <= 0) return 0;
  return Math.floor((cents * bp) / 10_000);
}
