// The operator's catalog rules that the database does not state: every price must be chargeable
// in one ledger movement, and a discount is a whole number of hundredths of a percent.
import { MAX_AMOUNT_CENTS } from '../billing/ledger.ts';
import { ApiError, type FieldError } from '../errors.ts';
import { formatCents } from '../money.ts';

const PERCENTAGE = /^\d{1,3}(\.\d{1,2})?$/;

/**
 * A percentage from 0 to 100 with at most 2 decimals, as exact text for a NUMERIC(5,2) column;
 * null when it is not one. A JSON number is judged by its shortest decimal text (String(33.33) is
 * "33.33", String(1e-7) is "1e-7"), so no float multiplication can accept 1.005 or refuse 0.07.
 */
export function percentageText(value: number | string): string | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (!PERCENTAGE.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0')) <= 10_000 ? text : null;
}

/**
 * Checks the values of a catalog row (new or a patch) and returns them as they are stored.
 * Money columns are named `<field>_cents` throughout the schema, so errors name `<field>`: the
 * body field of every API that writes the catalog.
 */
export function checkCatalogValues<T extends object>(values: T): T {
  const out = { ...values } as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const [column, v] of Object.entries(values)) {
    if (column.endsWith('_cents')) {
      // Above the ledger's largest movement a price could never be charged (or refunded).
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > MAX_AMOUNT_CENTS) {
        errors.push({ field: column.slice(0, -'_cents'.length), code: 'INVALID', message: `must be an amount from 0.00 to ${formatCents(MAX_AMOUNT_CENTS)}` });
      }
    } else if (column === 'discount_percentage') {
      const text = typeof v === 'number' || typeof v === 'string' ? percentageText(v) : null;
      if (text === null) errors.push({ field: column, code: 'INVALID', message: 'must be a percentage from 0 to 100 with at most 2 decimals' });
      else out[column] = text;
    }
  }
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return out as T;
}
