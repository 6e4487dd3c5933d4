import { getTraffic } from '../../../core/servers/telemetry.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { TrafficSchema } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/traffic', {
    config: { area: 'servers' },
    schema: {
      operationId: 'getServerTraffic',
      tags: ['Servers'],
      summary: 'Get traffic of a server',
      description: "This month's (UTC) inbound and outbound bytes and the monthly quota, read live from the platform.",
      params: ServerParams,
      response: { 200: Envelope(TrafficSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const traffic = await withCtx(deps, request, (ctx) => getTraffic(ctx, request.params.id));
    return ok(request, traffic);
  });
}
