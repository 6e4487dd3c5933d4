// Success envelopes of v2 (also used by the admin API).
import type { FastifyRequest } from 'fastify';
import { type Paged, totalPages } from '../core/pagination.ts';

export const V2_VERSION = '2.0.0';

function meta(request: FastifyRequest) {
  return { request_id: request.id, version: V2_VERSION, ...(request.caller?.sandbox ? { sandbox: true } : {}) };
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

/** Query `page`/`per_page` → the core's page request. */
export function pageOf(q: { page: number; per_page: number }) {
  return { page: q.page, perPage: q.per_page };
}
