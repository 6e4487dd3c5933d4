import { getMetrics } from '../../../core/servers/telemetry.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { MetricsSchema, metricsView } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/metrics', {
    config: { area: 'servers' },
    schema: {
      operationId: 'getServerMetrics',
      tags: ['Servers'],
      summary: 'Get utilization of a server',
      description: 'CPU, memory and disk utilization in percent: the latest sample, read live from the platform. A server not provisioned yet is 409 `STATE_CONFLICT`.',
      params: ServerParams,
      response: { 200: Envelope(MetricsSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const metrics = await withCtx(deps, request, (ctx) => getMetrics(ctx, request.params.id));
    return ok(request, metricsView(metrics));
  });
}
