// Builds the HTTP application: conventions shared by every route (request id, body parsing,
// 404/405, error envelope, auth and rate limit), then the route families.
import Fastify, { type FastifyBaseLogger, type FastifyContextConfig, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../core/errors.ts';
import { base62 } from '../core/ids.ts';
import type { Services } from '../core/context.ts';
import type { Db } from '../core/types.ts';
import { registerAdminRoutes } from './admin/index.ts';
import { type ActorOf, registerPanelBillingRoutes } from './panel-billing/index.ts';
import { registerPaymentRoutes } from './payments/index.ts';
import { ipBudget, registerAuth } from './auth.ts';
import { registerPanel } from './panel/index.ts';
import { registerStaffConsole } from './staff-console/index.ts';
import { sessionSettings } from './panel/session-auth.ts';
import { PANEL_BILLING_PREFIX, sessionBillingActor } from './panel/billing-actor.ts';
import { startKeyCache } from './key-cache.ts';
import { type OperationWaits, startOperationWaits } from './operation-waits.ts';
import { registerHealthRoutes } from './health.ts';
import { attachConsoleSockets } from './console/socket.ts';
import { registerObservability } from './observe.ts';
import { type Telemetry, createTelemetry } from '../telemetry/index.ts';
import { type RateLimiter, rateLimitHeaders, rateLimited } from './rate-limit.ts';
import { clientErrorHandler, isV1Url, spendAddressBudget } from './client-errors.ts';
import { sendError } from './errors.ts';
import { closeQueryString } from './route-conventions.ts';
import { parseJsonBody, parseQueryString, refuseBadText, refuseMalformedUrl } from './input-text.ts';
import { components } from './schemas.ts';
import { registerDocs } from './docs/index.ts';
import { type V2Options, registerV2 } from './v2/index.ts';
import { registerV1 } from './v1/index.ts';
import { sendV1Error } from './v1/errors.ts';
import type { TypedApp } from './route-types.ts';
import { addSharedSchema, validatorCompiler } from './validation.ts';
import { lazySerializers, lazyValidators } from './lazy-compilers.ts';
import type { AdminSecret } from './bearer.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  rateLimiter: RateLimiter;
  adminToken: AdminSecret;
  /** Default: createLogger(LOG_LEVEL), JSON to stdout. */
  logger?: Logger;
  /** Logger and metrics shared with the worker and providers; default: its own, around `logger`. */
  telemetry?: Telemetry;
  now?: () => Date;
  /** Provider and queue for live (non-sandbox) requests; see runtime.ts. */
  services: Services;
  /** Tests: told of every v2 error response its route does not declare in the OpenAPI document. */
  onUndocumentedError?: V2Options['onUndocumentedError'];
  /**
   * The customer's billing routes (top-up, invoices, statements: panel-billing/), mounted at
   * `prefix` with `actorOf` telling who the signed-in customer is. Default: at /panel/api/billing,
   * the customer panel's session (panel/billing-actor.ts); tests may plug in their own.
   */
  panelBilling?: { prefix: string; actorOf: ActorOf };
}

export type App = TypedApp;

/** The part of a route's config that says who may call it (auth.ts). */
export type RouteAccess = Pick<FastifyContextConfig, 'auth' | 'area' | 'access' | 'alsoAreas' | 'credential' | 'rateLimit'>;

/** A route as registered (tests walk every route of an app, admin ones included). */
export interface RouteEntry {
  method: string;
  url: string;
  bodySchema: unknown;
  querySchema: unknown;
  /** The answers' schemas by status (the panel's generated types read them: scripts/panel-types.ts). */
  responseSchema?: unknown;
  /** Who may call it and the scope it needs (auth.ts reads the same config). */
  config: RouteAccess;
}

const routeTables = new WeakMap<object, RouteEntry[]>();
const waitsOfApp = new WeakMap<object, OperationWaits>();

/** The app's waits on operations (tests: how many requests wait, whether it listens). */
export function operationWaitsOf(app: App): OperationWaits | undefined {
  return waitsOfApp.get(app);
}

/** Every route of an app built by buildApp, in registration order. */
export function routesOf(app: App): RouteEntry[] {
  return routeTables.get(app) ?? [];
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Sandbox operation ids carry their own description (~120 characters); the router's default is 100. */
const MAX_PARAM_LENGTH = 200;
/** The three APIs (their docs included); the health probes and /metrics stay outside. */
const API_PREFIX = /^\/(?:v2|v1|admin\/v1|panel\/api)(?:\/|$)/;


export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  /** Errors outside any API's own handler (no route, or before routing): v1's envelope under /v1, v2's elsewhere. */
  const sendFor = (request: FastifyRequest, reply: FastifyReply, err: unknown) => (isV1Url(request.url)
    ? sendV1Error(err, request, reply)
    : sendError(config.publicUrl, err, request, reply));
  const now = deps.now ?? (() => new Date());
  const telemetry = deps.telemetry ?? createTelemetry(deps.logger ?? createLogger(config.logLevel, undefined, config.logFormat));
  const app = Fastify({
    loggerInstance: telemetry.logger as FastifyBaseLogger,
    genReqId: () => `req_${base62(20)}`,
    // observe.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    trustProxy: config.trustProxy === false ? false : config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
    // While closing, Fastify's own 503 has its own body; the hook below answers in the envelope.
    return503OnClosing: false,
    // A URL the router cannot take: no route, so no hook ran. The answer is in the envelope of the
    // API its path names, and the request spends its address's budget (RateLimit-* headers, 429
    // once spent) as every request that reaches no route does.
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', request.id);
      let api = err.code === 'FST_ERR_BAD_URL'
        ? new ApiError('REQUEST_MALFORMED', 'The URL is not validly encoded')
        : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('REQUEST_MALFORMED', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`)
          : new ApiError('REQUEST_MALFORMED', 'The request could not be read');
      void spendAddressBudget(deps.rateLimiter, ipBudget(request.ip)).then((d) => {
        if (d) {
          reply.headers(rateLimitHeaders(d));
          if (!d.allowed) api = rateLimited(d);
        }
        sendFor(request, reply, api);
      });
    },
    clientErrorHandler: clientErrorHandler(config.publicUrl, deps.rateLimiter, ipBudget),
    forceCloseConnections: 'idle',
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(lazyValidators(validatorCompiler));
  for (const s of components()) {
    app.addSchema(s);
    addSharedSchema(s);
  }

  // JSON is the only body type (text/plain too is refused with 415), in UTF-8 only. Empty bodies
  // are fine (actions without a body); anything else must be valid JSON of valid text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    try {
      done(null, parseJsonBody(req.headers['content-type'], body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  // Hooks on every request are callback-style where they do not wait on anything: an async hook
  // costs Fastify a promise and a microtask turn each (a throw here still becomes the error answer).
  app.addHook('preValidation', (request, _reply, done) => {
    refuseMalformedUrl(request.raw.url ?? '', request.query);
    for (const part of [request.params, request.query] as Record<string, unknown>[]) {
      for (const [k, v] of Object.entries(part ?? {})) refuseBadText(v, k);
    }
    done();
  });

  // 405 needs to know which methods a path has: mirror every route into a find-my-way router.
  const routes = FindMyWay();
  const table: RouteEntry[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (r) => {
    if (API_PREFIX.test(r.url)) closeQueryString(r);
    // A page's catch-all (the console's /admin/*) is no method of the API paths it spans.
    if (r.config?.pageFallback) return;
    for (const method of ([] as string[]).concat(r.method)) {
      const m = method.toUpperCase() as HTTPMethod;
      if (!METHODS.includes(m)) continue;
      if (m !== 'HEAD') table.push({ method: m, url: r.url, bodySchema: r.schema?.body, querySchema: r.schema?.querystring, responseSchema: r.schema?.response, config: r.config ?? {} });
      try {
        routes.on(m, r.url, () => {});
      } catch {
        // Already known (HEAD mirrors of GET routes).
      }
    }
  });

  // A request that still reaches a closing server (pipelined, or on a busy keep-alive connection:
  // Fastify closes only idle ones and answers with Connection: close) is refused before any work,
  // so a load balancer sends it elsewhere.
  let closing = false;
  app.addHook('preClose', (done) => { closing = true; done(); });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (closing) throw new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly', [], { retryAfterS: 1 });
    done();
  });
  const keyCache = startKeyCache(deps.db);
  app.addHook('onClose', () => keyCache.close());
  // Requests waiting on an operation answer its state at once when the server starts closing (a
  // close waits for in-flight requests, and a wait may last a minute).
  const operationWaits = startOperationWaits(deps.db);
  waitsOfApp.set(app, operationWaits);
  app.addHook('preClose', (done) => { operationWaits.release(); done(); });
  app.addHook('onClose', () => operationWaits.close());
  registerAuth(app, {
    db: deps.db, rateLimiter: deps.rateLimiter, adminToken: deps.adminToken, metricsToken: deps.config.metricsToken, now, keys: keyCache.keys,
    panelSessions: sessionSettings(config),
  });

  app.setErrorHandler((err, request, reply) => sendFor(request, reply, err));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = METHODS.filter((m) => m !== request.method && routes.find(m, path));
    if (allowed.length > 0) {
      return sendFor(request, reply, new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, [], { allow: allowed }));
    }
    return sendFor(request, reply, new ApiError('ENDPOINT_NOT_FOUND', `No endpoint ${request.method} ${path}`));
  });

  // Tests: every 201 (v2, v1, admin) names what it created in Location (reply.ts `locate`).
  const report = deps.onUndocumentedError;
  if (report) {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode === 201 && !reply.hasHeader('Location')) {
        report({ method: request.method, route: request.routeOptions.url ?? request.url, status: 201, code: '(no Location header)' });
      }
      done(null, payload);
    });
  }

  await registerObservability(app, telemetry);
  await app.register(registerHealthRoutes, { db: deps.db });
  await app.register(registerV2, { prefix: '/v2', db: deps.db, config, now, services: deps.services, operationWaits, registerDocs, onUndocumentedError: deps.onUndocumentedError });
  await app.register(registerV1, { prefix: '/v1', db: deps.db, config, now, services: deps.services, onUndocumentedError: deps.onUndocumentedError });
  await app.register(registerAdminRoutes, { prefix: '/admin/v1', db: deps.db, config, now, services: deps.services });
  await app.register(registerStaffConsole, { prefix: '/admin' });
  await app.register(registerPanel, { prefix: '/panel', db: deps.db, config, now, services: deps.services, rateLimiter: deps.rateLimiter, onUndocumentedError: deps.onUndocumentedError });
  await app.register(registerPaymentRoutes, { prefix: '/payments', db: deps.db, config, now, services: deps.services });
  const billing = deps.panelBilling ?? { prefix: PANEL_BILLING_PREFIX, actorOf: sessionBillingActor(deps.db, sessionSettings(config), now) };
  await app.register(registerPanelBillingRoutes, { prefix: billing.prefix, db: deps.db, config, now, services: deps.services, actorOf: billing.actorOf });
  attachConsoleSockets(app, { db: deps.db, compute: deps.services.compute, now });
  return app;
}
