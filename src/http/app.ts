// Builds the HTTP application: conventions shared by every route (request id, body parsing,
// 404/405, error envelope, auth and rate limit), then the route families.
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import secureJson from 'secure-json-parse';
import type { Config } from '../config.ts';
import { ApiError } from '../core/errors.ts';
import { base62 } from '../core/ids.ts';
import type { Services } from '../core/context.ts';
import type { Db } from '../core/types.ts';
import { registerAdminRoutes } from './admin/index.ts';
import { registerAuth } from './auth.ts';
import { registerHealthRoutes } from './health.ts';
import { registerObservability } from './observe.ts';
import { type Telemetry, createTelemetry } from '../telemetry/index.ts';
import type { RateLimiter } from './rate-limit.ts';
import { clientErrorHandler } from './client-errors.ts';
import { sendError } from './errors.ts';
import { ErrorEnvelope, MoneySchema } from './schemas.ts';
import { registerV2 } from './v2/index.ts';
import type { TypedApp } from './route-types.ts';
import { addSharedSchema, validatorCompiler } from './validation.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  rateLimiter: RateLimiter;
  adminToken: string;
  /** Default: createLogger(LOG_LEVEL), JSON to stdout. */
  logger?: Logger;
  /** Logger and metrics shared with the worker and providers; default: its own, around `logger`. */
  telemetry?: Telemetry;
  now?: () => Date;
  /** Provider and queue for live (non-sandbox) requests; see runtime.ts. */
  services: Services;
}

export type App = TypedApp;

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];


/**
 * PostgreSQL text cannot hold NUL (U+0000); refuse it at the door, naming the field, rather than
 * letting it fail deep in a query.
 */
function refuseNul(key: string, value: unknown): unknown {
  const texts = Array.isArray(value) ? value : [value];
  if (texts.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
    throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [
      { field: key === '' ? 'body' : key, code: 'INVALID', message: 'must not contain the NUL character' },
    ]);
  }
  return value;
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const now = deps.now ?? (() => new Date());
  const telemetry = deps.telemetry ?? createTelemetry(deps.logger ?? createLogger(config.logLevel, undefined, config.logFormat));
  const app = Fastify({
    loggerInstance: telemetry.logger as FastifyBaseLogger,
    genReqId: () => `req_${base62(20)}`,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    trustProxy: config.trustProxy === false ? false : config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    // Sandbox operation ids carry their own description (~120 characters); default is 100.
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', request.id);
      const api = err.code === 'FST_ERR_BAD_URL'
        ? new ApiError('REQUEST_MALFORMED', 'The URL is not validly encoded')
        : new ApiError('REQUEST_MALFORMED', 'The request could not be read');
      return sendError(config.publicUrl, api, request, reply);
    },
    clientErrorHandler: clientErrorHandler(config.publicUrl),
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  for (const s of [ErrorEnvelope, MoneySchema] as (object & { $id: string })[]) {
    app.addSchema(s);
    addSharedSchema(s);
  }

  // JSON is the only body type (text/plain too is refused with 415). Empty bodies are fine
  // (actions without a body); anything else must be valid JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, refuseNul, { protoAction: 'error', constructorAction: 'error' }));
    } catch (e) {
      done(e instanceof ApiError ? e : new ApiError('REQUEST_MALFORMED', 'The request body is not valid JSON'), undefined);
    }
  });
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query] as Record<string, unknown>[]) {
      for (const [k, v] of Object.entries(part ?? {})) refuseNul(k, v);
    }
  });

  // 405 needs to know which methods a path has: mirror every route into a find-my-way router.
  const routes = FindMyWay();
  app.addHook('onRoute', (r) => {
    for (const method of ([] as string[]).concat(r.method)) {
      const m = method.toUpperCase() as HTTPMethod;
      if (!METHODS.includes(m)) continue;
      try {
        routes.on(m, r.url, () => {});
      } catch {
        // Already known (HEAD mirrors of GET routes).
      }
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerAuth(app, { db: deps.db, rateLimiter: deps.rateLimiter, adminToken: deps.adminToken, now });

  app.setErrorHandler((err, request, reply) => sendError(config.publicUrl, err, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter((m) => m !== request.method && routes.find(m, path));
    if (allowed.length > 0) {
      return sendError(config.publicUrl, new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, [], { Allow: allowed.join(', ') }), request, reply);
    }
    return sendError(config.publicUrl, new ApiError('ENDPOINT_NOT_FOUND', `No endpoint ${request.method} ${path}`), request, reply);
  });

  await registerObservability(app, telemetry);
  await app.register(registerHealthRoutes, { db: deps.db });
  await app.register(registerV2, { prefix: '/v2', db: deps.db, config, now, services: deps.services });
  await app.register(registerAdminRoutes, { prefix: '/admin/v1', db: deps.db, config, now, services: deps.services });
  return app;
}
