// A catalog constraint the database refused (a duplicate code, a maximum below its minimum, an
// overlapping reseller tier) is the caller's input error: 422 naming the field, never a 500.
import { rowRefusal } from '../../db/refusals.ts';
import { ApiError } from '../errors.ts';

/** Rethrows `e` as the caller's error when it is a refused constraint; anything else as is. */
export function constraintError(e: unknown, table: string, label: string): never {
  const refused = rowRefusal(e, table);
  if (!refused) throw e;
  // Money columns are the body field plus `_cents`; a constraint over no one column is about the body.
  const field = refused.column?.replace(/_cents$/, '') ?? 'body';
  const refuse = (message: string, detail: string) => new ApiError('VALIDATION_FAILED', message, [{ field, code: 'INVALID', message: detail }]);
  switch (refused.kind) {
    case 'duplicate':
      throw refuse(`A ${label} row with this ${field === 'body' ? 'key' : field} already exists`, 'duplicates an existing row');
    case 'inconsistent':
      throw refuse(`The ${label} row breaks a catalog rule`, 'is inconsistent with the other values (for example a maximum below its minimum)');
    case 'overlap':
      // Only the reseller tier ladder has an exclusion constraint.
      throw refuse(`The ${label} row breaks a catalog rule`, 'overlaps an existing tier (tiers form a ladder; only the top tier is open-ended)');
  }
}
