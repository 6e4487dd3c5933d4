import { getVm } from '../../../core/vdc/read.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { V1VmDetail, VmParams } from './schemas.ts';
import { v1VmDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/vms/:vm_id', area: 'vdc', operationId: 'getVm', tag: 'VDC',
    summary: 'Get a VM',
    description: 'A VM with its size and power read live from the platform (what was last recorded if it does not answer in time). '
      + 'Another account\'s VM is 404.',
    params: VmParams,
    response: V1Data(V1VmDetail),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => v1ok(v1VmDetail(await withCtx(deps, request, (ctx) => getVm(ctx, request.params.vm_id)))),
  });
}
