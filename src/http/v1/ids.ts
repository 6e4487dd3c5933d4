// v1 path parameters are strings ("every path parameter is a string identifier unless stated"). An
// id that cannot name anything (not digits, or beyond an int column) is simply not found — the
// v1 answer for any id it does not know — rather than a validation error.
import { ApiError } from '../../core/errors.ts';

export function intIdOr404(text: string, what: string): number {
  const n = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n > 2_147_483_647) throw new ApiError('RESOURCE_NOT_FOUND', `${what} ${text.slice(0, 32)} not found`);
  return n;
}
