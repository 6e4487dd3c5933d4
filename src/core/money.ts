// Money is integer cents in the core and the database (BIGINT), a decimal string on the wire.
// Never a float: parsing goes through a regex, formatting through integer arithmetic.

export const CURRENCY = 'USD';

export interface Money {
  amount: string;
  currency: string;
}

/** Cents are safe as JS numbers up to 2^53 (≈ 90 trillion dollars). */
export type Cents = number;

const AMOUNT = /^(0|[1-9]\d{0,11})(?:\.(\d{1,2}))?$/;

/** "150" | "150.5" | "150.50" → 15050. Returns null for anything else (negative, 3 decimals, exponent…). */
export function parseAmount(text: string): Cents | null {
  const m = AMOUNT.exec(text);
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  return whole * 100 + frac;
}

/** Largest single movement: $10,000,000.00. Keeps sums far inside exact integer range. */
export const MAX_AMOUNT_CENTS = 1_000_000_000;

/** A positive amount as an operator types it ("150", "150.5", "150.00"), or the problem in words. */
export function depositCents(text: string): { cents: Cents } | { problem: string } {
  const cents = parseAmount(text.trim());
  if (cents === null) return { problem: /^\s*-/.test(text) ? 'must be positive: a deposit adds money, like 150.00' : 'must be an amount like 150.00' };
  if (cents === 0) return { problem: 'must be positive: a deposit adds money, like 150.00 (0 adds nothing)' };
  if (cents > MAX_AMOUNT_CENTS) return { problem: `must be at most ${formatCents(MAX_AMOUNT_CENTS)}` };
  return { cents };
}

export function formatCents(cents: Cents): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function money(cents: Cents): Money {
  return { amount: formatCents(cents), currency: CURRENCY };
}

/**
 * The unused share of a period, in whole hours, rounded down to the cent (the customer is never
 * refunded more than they paid for).
 */
export function prorate(cents: Cents, remainingHours: number, periodHours: number): Cents {
  if (periodHours <= 0 || remainingHours <= 0) return 0;
  const hours = Math.min(Math.floor(remainingHours), periodHours);
  return Math.floor((cents * hours) / periodHours);
}

/**
 * What moving a monthly price from `fromCents` to `toCents` is worth for the unused hours of the
 * cycle: the difference of the two prorated amounts, each rounded down. Positive is owed by the
 * customer, negative is owed to them. Differencing the rounded amounts (rather than rounding the
 * difference) makes successive changes and the final refund of a delete add up: a small price
 * rise is never free while the refund of the higher price pays out more.
 */
export function prorateChange(fromCents: Cents, toCents: Cents, remainingHours: number, periodHours: number): Cents {
  return prorate(toCents, remainingHours, periodHours) - prorate(fromCents, remainingHours, periodHours);
}
