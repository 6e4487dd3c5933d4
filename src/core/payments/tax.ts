// Tax on a top-up, in integer arithmetic: rates are hundredths of a percent (1900 = 19.00 %), the
// tax of a net amount is rounded half up to the cent, and gross = net + tax exactly.
import type { Cents } from '../money.ts';

const RATE = /^(100|[1-9]?\d)(?:\.(\d{1,2}))?$/;

/** "19", "7.7", "19.00" → 1900, 770, 1900; null for anything else (negative, over 100, 3 decimals). */
export function parseRate(text: string): number | null {
  const m = RATE.exec(text.trim());
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}

/** 1900 → "19.00". */
export function formatRate(bp: number): string {
  return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}

/** The tax of `net` at `bp`, half up to the cent. */
export function taxOf(net: Cents, bp: number): Cents {
  return Math.floor((net * bp + 5_000) / 10_000);
}
