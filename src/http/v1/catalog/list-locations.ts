import { Type } from '@sinclair/typebox';
import { listServerLocations } from '../../../core/catalog/customer-lists.ts';
import { totalPages } from '../../../core/pagination.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1Route } from '../route.ts';
import { V1PageQuery, V1PaginationSchema } from '../schemas.ts';
import { V1Location } from './schemas.ts';
import { v1Location } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/locations', area: 'catalog', operationId: 'listLocations', tag: 'Catalog',
    summary: 'List locations',
    description: 'The locations servers and VMs can be created in, under `data.locations`; `id` is the `location_id` of POST /servers, '
      + '`name` (or `code`) the `location_name` of POST /vms.',
    querystring: Type.Object({ ...V1PageQuery('per_page', 100) }, { additionalProperties: false }),
    response: Type.Object({ success: Type.Boolean({ enum: [true] }), data: Type.Object({ locations: Type.Array(V1Location) }), pagination: V1PaginationSchema }),
    handler: async (request) => {
      const r = await listServerLocations(db, { page: request.query.page, perPage: request.query.per_page });
      return {
        success: true as const,
        data: { locations: r.items.map(v1Location) },
        pagination: { current_page: r.page, total: r.total, total_pages: totalPages(r.total, r.perPage) },
      };
    },
  });
}
