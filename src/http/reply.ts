// Success envelopes of v2 (also used by the admin API).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { money } from '../core/money.ts';
import { type Paged, totalPages } from '../core/pagination.ts';

export const V2_VERSION = '2.0.0';

function meta(request: FastifyRequest) {
  const d = request.dryRun;
  return {
    request_id: request.id, version: V2_VERSION,
    ...(request.caller?.sandbox ? { sandbox: true } : {}),
    ...(d ? { dry_run: { charged: money(d.chargedCents), refunded: money(d.refundedCents), balance_after: money(d.balanceBeforeCents - d.chargedCents + d.refundedCents) } } : {}),
  };
}

export function ok<T>(request: FastifyRequest, data: T) {
  return { data, meta: meta(request) };
}

export function page<R, T>(request: FastifyRequest, paged: Paged<R>, map: (row: R) => T) {
  return {
    data: paged.items.map(map),
    meta: {
      ...meta(request),
      pagination: { page: paged.page, per_page: paged.perPage, total: paged.total, total_pages: totalPages(paged.total, paged.perPage) },
    },
  };
}

/**
 * A 201 names what it made in `Location`: the resource's URL under PUBLIC_URL, where it is read or
 * acted on, or — for one with no URL of its own (a ledger row, a ticket reply) — the URL that
 * shows it. Call it once the status is set: any other status (a replayed error) gets none.
 */
export function locate(reply: FastifyReply, publicUrl: string, ...segments: (string | number)[]): void {
  if (reply.statusCode === 201) reply.header('Location', `${publicUrl}/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`);
}

/** Query `page`/`per_page` → the core's page request. */
export function pageOf(q: { page: number; per_page: number }) {
  return { page: q.page, perPage: q.per_page };
}
