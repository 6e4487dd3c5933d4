// Success envelopes of v1: `{success: true, data, message?, pagination?}` and `{success, message}`.
import type { Paged } from '../../core/pagination.ts';
import { totalPages } from '../../core/pagination.ts';

export function v1ok<T>(data: T, message?: string) {
  return { success: true as const, data, ...(message === undefined ? {} : { message }) };
}

export function v1message(message: string) {
  return { success: true as const, message };
}

export function v1page<R, T>(paged: Paged<R>, map: (row: R) => T) {
  return {
    success: true as const,
    data: paged.items.map(map),
    pagination: { current_page: paged.page, total: paged.total, total_pages: totalPages(paged.total, paged.perPage) },
  };
}

/** Cents → v1's JSON number (exact for any amount below 2^53 cents). */
export function v1money(cents: number): number {
  return cents / 100;
}

/** A Date → RFC 3339 in UTC, whole seconds, or null. */
export function v1time(d: Date | null | undefined): string | null {
  return d ? `${d.toISOString().slice(0, 19)}Z` : null;
}
