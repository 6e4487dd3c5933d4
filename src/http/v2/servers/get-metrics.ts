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
      tags: ['Servers'],
      summary: 'CPU, memory and disk utilization (percent), the latest sample from the platform',
      params: ServerParams,
      response: { 200: Envelope(MetricsSchema), ...errorResponses },
    },
  }, async (request) => {
    const metrics = await withCtx(deps, request, (ctx) => getMetrics(ctx, request.params.id));
    return ok(request, metricsView(metrics));
  });
}
