import { Type } from '@sinclair/typebox';
import { listVms } from '../../../core/vdc/read.ts';
import { totalPages } from '../../../core/pagination.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1Route } from '../route.ts';
import { V1PageQuery, V1PaginationSchema } from '../schemas.ts';
import { V1VmListItem } from './schemas.ts';
import { v1VmListItem } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/vms', area: 'vdc', operationId: 'listVms', tag: 'VDC',
    summary: 'List VMs',
    description: 'The VMs of the VDC under `data.vms`, newest first (deleted ones left out), with their last recorded status and size.',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: Type.Object({
      success: Type.Boolean({ enum: [true] }),
      data: Type.Object({ vms: Type.Array(V1VmListItem) }),
      pagination: V1PaginationSchema,
    }),
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => listVms(ctx, { page: request.query.page, perPage: request.query.per_page }));
      return {
        success: true as const,
        data: { vms: r.items.map(v1VmListItem) },
        pagination: { current_page: r.page, total: r.total, total_pages: totalPages(r.total, r.perPage) },
      };
    },
  });
}
