// What the HTTP layer reports: per request, Prometheus counts and durations by route pattern;
// per 4xx/5xx answer one log line with its error.code and the caller's account (never a key or
// token), and the counts of refusals by code, rate-limit refusals and idempotent replays.
// GET /metrics serves the process's registry (METRICS_TOKEN or the admin token).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Telemetry } from '../telemetry/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** error.code of an error answer, read back from the envelope being sent. */
    errorCode: string | null;
  }
}

export async function registerObservability(app: FastifyInstance, { metrics }: Telemetry): Promise<void> {
  app.decorateRequest('errorCode', null);
  // prom-client hashes a label object on every call; the labelled series of a route are looked up
  // once and kept (routes × methods × statuses: a few hundred at most).
  const requests = new Map<string, { count: { inc(): void }; duration: { observe(v: number): void } }>();
  const seriesOf = (method: string, route: string, status: number) => {
    const k = `${method} ${status} ${route}`;
    let s = requests.get(k);
    if (!s) {
      s = { count: metrics.httpRequests.labels(method, route, String(status)), duration: metrics.httpDuration.labels(method, route) };
      requests.set(k, s);
    }
    return s;
  };

  // Every error envelope passes here serialized, whichever path built it (a rule, a schema, the
  // body parser, auth, 404/405), so the code is read from it rather than from each path.
  // Callback-style, as they wait on nothing: an async hook costs a promise and a microtask turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.length < 65_536) {
      try {
        const code = (JSON.parse(payload) as { error?: { code?: unknown } }).error?.code;
        if (typeof code === 'string') request.errorCode = code;
      } catch {
        // Not an envelope (cannot happen for our errors); logged without a code.
      }
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    try {
      record(request, reply);
    } catch (err) {
      // Reporting must never fail the request cycle (Fastify would log a throw from an async hook too).
      request.log.error({ err }, 'recording the response failed');
    }
    done();
  });

  const record = (request: FastifyRequest, reply: FastifyReply) => {
    // The route pattern, never the raw URL: ids in paths would explode the label space.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const series = seriesOf(request.method, route, status);
    series.count.inc();
    series.duration.observe(reply.elapsedTime / 1000);
    if (reply.getHeader('idempotent-replayed') === 'true') metrics.idempotentReplays.inc({ route });
    // One line per request, written when it is answered (Fastify's own pair of lines, one as the
    // request comes in and one as it completes, is off: half the logging on the hot path).
    request.log.info({ req: request, res: { statusCode: status }, responseTime: reply.elapsedTime }, 'request completed');
    if (status < 400) return;
    const code = request.errorCode ?? 'UNKNOWN';
    metrics.httpErrors.inc({ code, status: String(status) });
    if (code === 'RATE_LIMITED') metrics.rateLimited.inc({ route });
    const fields = { status, error_code: code, account_id: request.caller?.accountId ?? null, method: request.method, route };
    const message = `answered ${status} ${code}`;
    if (status >= 500) request.log.error(fields, message);
    else request.log.info(fields, message);
  };

  app.get('/metrics', { config: { auth: 'metrics', rateLimit: false }, schema: { hide: true } }, async (_req, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
}
