// A catalog constraint the database refused (a duplicate code, a maximum below its minimum, an
// overlapping reseller tier) is the caller's input error: 422 naming the field, never a 500.
import { pgCode, pgConstraint } from '../../db/connection.ts';
import { ApiError } from '../errors.ts';

/**
 * The body field a refused constraint is about. PostgreSQL names single-column constraints
 * `<table>_<column>_key` / `_check`, and money columns are the body field plus `_cents`; those
 * over several columns (the maximum-above-minimum checks, the tier ladder) are listed.
 */
const CONSTRAINT_FIELD: Record<string, string> = {
  tld_prices_pkey: 'tld',
  tld_prices_check: 'years_max',
  reseller_tiers_check: 'max_servers',
  reseller_tiers_no_overlap: 'min_servers',
  operating_systems_family_version_key: 'version',
};

function constraintField(table: string, constraint: string | undefined): string {
  if (!constraint) return 'body';
  const listed = CONSTRAINT_FIELD[constraint];
  if (listed) return listed;
  const m = /^(\w+?)_(key|check)$/.exec(constraint.startsWith(`${table}_`) ? constraint.slice(table.length + 1) : '');
  return m ? m[1]!.replace(/_cents$/, '') : 'body';
}

/** Rethrows `e` as the caller's error when it is a refused constraint; anything else as is. */
export function constraintError(e: unknown, table: string, label: string): never {
  const code = pgCode(e);
  const field = constraintField(table, pgConstraint(e));
  const refuse = (message: string, detail: string) => new ApiError('VALIDATION_FAILED', message, [{ field, code: 'INVALID', message: detail }]);
  if (code === '23505') throw refuse(`A ${label} row with this ${field === 'body' ? 'key' : field} already exists`, 'duplicates an existing row');
  if (code === '23514') throw refuse(`The ${label} row breaks a catalog rule`, 'is inconsistent with the other values (for example a maximum below its minimum)');
  // 23P01: only the reseller tier ladder has an exclusion constraint.
  if (code === '23P01') throw refuse(`The ${label} row breaks a catalog rule`, 'overlaps an existing tier (tiers form a ladder; only the top tier is open-ended)');
  throw e;
}
