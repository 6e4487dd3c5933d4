import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { serverDetail } from './detail.ts';
import { ServerIdParams, V1ServerDetail } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET',
    url: '/servers/:server_id',
    area: 'servers',
    operationId: 'getServer',
    tag: 'Servers',
    summary: 'Get a server',
    description: 'A server with its primary address and reverse DNS, its extra addresses and this month\'s traffic. Live state is best effort: '
      + 'when the platform does not answer in time the status is the last known one and the traffic bytes are null.',
    params: ServerIdParams,
    response: V1Data(V1ServerDetail),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => v1ok(await withCtx(deps, request, (ctx) => serverDetail(ctx, request.params.server_id))),
  });
}
