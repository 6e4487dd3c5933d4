import { Type } from '@sinclair/typebox';
import { listVms } from '../../../core/vdc/read.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { VdcVmSchema, vdcVmView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/vdc/vms', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'listVdcVms',
      tags: ['VDC'],
      summary: 'List VDC VMs',
      description: 'The VMs of your VDC, newest first; deleted VMs are excluded. Items show the last recorded power state, OS and size: '
        + 'read a VM for its live state.',
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(VdcVmSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listVms(ctx, pageOf(request.query)));
    return page(request, result, vdcVmView);
  });
}
