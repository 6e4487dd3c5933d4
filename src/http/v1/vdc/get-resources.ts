import { getVdcResources } from '../../../core/vdc/pool.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { V1VdcResources } from './schemas.ts';
import { v1ResourcesView } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/resources', area: 'vdc', operationId: 'getResources', tag: 'VDC',
    summary: 'Get the VDC resources',
    description: 'The VDC pool: what the provider set (`resources`), what the VMs hold (`usage`) and what is left (`available`). '
      + 'RAM in GB. An account without a VDC reads zeros everywhere.',
    response: V1Data(V1VdcResources),
    handler: async (request) => v1ok(v1ResourcesView(await withCtx(deps, request, (ctx) => getVdcResources(ctx)))),
  });
}
