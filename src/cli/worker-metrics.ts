// GET /metrics of a `hostcloud worker` (WORKER_METRICS_PORT): the operations it ran, its provider
// calls, its pool and the queue, for Prometheus. The worker has no Fastify, so this is a bare
// node:http listener with the API's token check (METRICS_TOKEN or the admin token) and v2 error envelope. Unlike the API it does
// not throttle wrong tokens: nothing else is served here, and the token is 32 random bytes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, type ErrorCode } from '../core/errors.ts';
import { base62 } from '../core/ids.ts';
import { type AdminSecret, bearerOf, isAdminToken, sameSecret } from '../http/bearer.ts';
import { ERROR_CODES } from '../http/error-codes.ts';
import { errorBody } from '../http/errors.ts';
import type { Metrics } from '../telemetry/metrics.ts';

export interface WorkerMetricsOptions {
  host: string;
  /** 0: any free port (tests). */
  port: number;
  adminToken: AdminSecret;
  /** METRICS_TOKEN, which reads this and nothing else; undefined: the admin token only. */
  metricsToken?: string;
  publicUrl: string;
}

export interface WorkerMetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function serveWorkerMetrics(metrics: Metrics, opts: WorkerMetricsOptions): Promise<WorkerMetricsServer> {
  const server = http.createServer((req, res) => {
    const fail = (code: ErrorCode, message: string) => {
      const body = JSON.stringify(errorBody(opts.publicUrl, `req_${base62(20)}`, new ApiError(code, message)));
      // As the API's 503s, a retry hint (the scrape's next interval usually comes first anyway).
      const retry = code === 'SERVICE_UNAVAILABLE' ? { 'retry-after': '2' } : {};
      res.writeHead(ERROR_CODES[code].status, { 'content-type': 'application/json; charset=utf-8', ...retry }).end(body);
    };
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return fail('ENDPOINT_NOT_FOUND', `${req.method} ${path} does not exist here; the worker serves GET /metrics only`);
    if (req.method !== 'GET') return fail('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /metrics; use GET`);
    const token = bearerOf(req.headers.authorization);
    if (token === undefined) return fail('AUTH_REQUIRED', 'Send METRICS_TOKEN (or the admin token) as Authorization: Bearer <TOKEN>');
    const accepted = token !== null && (isAdminToken(token, opts.adminToken) || (opts.metricsToken !== undefined && sameSecret(token, opts.metricsToken)));
    if (!accepted) return fail('AUTH_INVALID', 'The token is invalid for /metrics');
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => fail('SERVICE_UNAVAILABLE', 'The metrics could not be collected; retry shortly'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => { server.off('error', reject); resolve(); });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
