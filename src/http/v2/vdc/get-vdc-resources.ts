import { getVdcResources } from '../../../core/vdc/pool.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { VdcResourcesSchema, vdcResourcesView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/vdc/resources', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'getVdcResources',
      tags: ['VDC'],
      summary: 'Get the VDC resource pool',
      description: 'The pool your VMs are made from: per resource, the total your provider set, what your VMs hold and what is left. '
        + 'An account without a VDC answers `has_pool: false` with every bucket at zero.',
      response: { 200: Envelope(VdcResourcesSchema), ...errorResponses() },
    },
  }, async (request) => {
    const pool = await withCtx(deps, request, (ctx) => getVdcResources(ctx));
    return ok(request, vdcResourcesView(pool));
  });
}
