import { getVmUsage } from '../../../core/vdc/usage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { VdcVmUsageSchema, VmParams, vdcVmUsageView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/vdc/vms/:id/usage', {
    config: { area: 'vdc' },
    schema: {
      operationId: 'getVdcVmUsage',
      tags: ['VDC'],
      summary: 'Get utilization of a VDC VM',
      description: 'CPU, memory and disk utilization and when they were measured, read live from the platform. A VM that is not active '
        + '(still being created, or failed) is 409 `STATE_CONFLICT`; a platform that fails or does not answer in time is 502 `UPSTREAM_ERROR`.',
      params: VmParams,
      response: { 200: Envelope(VdcVmUsageSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const usage = await withCtx(deps, request, (ctx) => getVmUsage(ctx, request.params.id));
    return ok(request, vdcVmUsageView(usage));
  });
}
