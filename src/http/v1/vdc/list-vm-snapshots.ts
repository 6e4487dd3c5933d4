import { Type } from '@sinclair/typebox';
import { totalPages } from '../../../core/pagination.ts';
import { listVmSnapshots } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1Route } from '../route.ts';
import { V1PageQuery, V1PaginationSchema } from '../schemas.ts';
import { V1VmSnapshot, VmParams } from './schemas.ts';
import { v1VmSnapshot } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/vms/:vm_id/snapshots', area: 'vdc', operationId: 'listVmSnapshots', tag: 'VDC',
    summary: 'List a VM\'s snapshots',
    description: 'The VM\'s snapshots under `data.snapshots`, newest first. VDC snapshots are free.',
    params: VmParams,
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: Type.Object({
      success: Type.Boolean({ enum: [true] }),
      data: Type.Object({ snapshots: Type.Array(V1VmSnapshot) }),
      pagination: V1PaginationSchema,
    }),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => listVmSnapshots(ctx, request.params.vm_id, { page: request.query.page, perPage: request.query.per_page }));
      return {
        success: true as const,
        data: { snapshots: r.items.map(v1VmSnapshot) },
        pagination: { current_page: r.page, total: r.total, total_pages: totalPages(r.total, r.perPage) },
      };
    },
  });
}
