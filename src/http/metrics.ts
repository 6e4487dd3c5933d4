// GET /metrics: Prometheus text for the operator (admin token). One registry per app so tests
// that build several apps in one process do not collide.
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export async function registerMetrics(app: FastifyInstance): Promise<void> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'hostcloud_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'hostcloud_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids in paths would explode the label space.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { config: { auth: 'admin', rateLimit: false }, schema: { hide: true } }, async (_req, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()));
}
