import { Type } from '@sinclair/typebox';
import { listVmSnapshots } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { VdcSnapshotSchema, VmParams, vdcSnapshotView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/vdc/vms/:id/snapshots', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'listVdcVmSnapshots',
      tags: ['VDC'],
      summary: 'List snapshots of a VDC VM',
      description: 'The VM\'s snapshots, newest first; deleted ones are excluded. Snapshots in a VDC are free.',
      params: VmParams,
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(VdcSnapshotSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listVmSnapshots(ctx, request.params.id, pageOf(request.query)));
    return page(request, result, vdcSnapshotView);
  });
}
