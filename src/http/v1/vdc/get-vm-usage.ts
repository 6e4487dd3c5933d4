import { getVmUsage } from '../../../core/vdc/usage.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { V1VmUsage, VmParams } from './schemas.ts';
import { v1VmUsage } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/vms/:vm_id/usage', area: 'vdc', operationId: 'getVmUsage', tag: 'VDC',
    summary: 'Get a VM\'s usage',
    description: 'The platform\'s latest measurement: load average, memory used (MB), disk used (GB). A VM not yet active is 422 '
      + '`STATE_CONFLICT`; a platform that fails or does not answer in time is 502 `UPSTREAM_ERROR`.',
    params: VmParams,
    response: V1Data(V1VmUsage),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'],
    handler: async (request) => v1ok(v1VmUsage(await withCtx(deps, request, (ctx) => getVmUsage(ctx, request.params.vm_id)))),
  });
}
