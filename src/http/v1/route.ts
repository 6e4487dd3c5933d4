// Registering a v1 route: one call states the method, path, area (its scope), schemas, the v2
// codes its rules raise and the handler. The route is recorded for the v1 OpenAPI document
// (openapi.ts) and registered with Fastify with the key read from X-API-Key; the success schema
// documents the answer (and tests check every answer against it) but is not a serializer.
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../core/errors.ts';
import type { Area } from '../../core/types.ts';
import { UNIVERSAL_ERRORS, statusTable } from '../error-responses.ts';
import type { TypedApp } from '../route-types.ts';
import { type FieldRenames, type V1ErrorCode, v1Mapping } from './errors.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type S<T> = T extends TSchema ? Static<T> : undefined;

export interface V1RouteDef<P extends TSchema | undefined, Q extends TSchema | undefined, B extends TSchema | undefined> {
  method: Method;
  /** Fastify form, relative to /v1: `/servers/:server_id`. */
  url: string;
  area: Area;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** Request headers the route reads (e.g. IdempotencyKeyHeaders), lower-case names. */
  headers?: TSchema;
  /** Success status (default 200) and the whole success body. */
  status?: number;
  response: TSchema;
  /** The codes the route's own rules raise (v2 names; the document shows them as v1 answers them). */
  errors?: ErrorCode[];
  /** Core field names → this route's, for field errors raised by the core. */
  renames?: FieldRenames;
  /** Marks something this service adds to the legacy v1 API (none yet; kept for symmetry with v2). */
  addition?: boolean;
  handler: (request: FastifyRequest & { params: S<P>; query: S<Q>; body: S<B> }, reply: FastifyReply) => Promise<unknown>;
}

export interface V1RouteRecord {
  method: Method;
  /** OpenAPI form, relative to /v1: `/servers/{server_id}`. */
  path: string;
  url: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string | undefined;
  params?: TSchema | undefined;
  querystring?: TSchema | undefined;
  body?: TSchema | undefined;
  headers?: TSchema | undefined;
  status: number;
  response: TSchema;
  /** v1 error codes per status. */
  errorCodes: Record<string, V1ErrorCode[]>;
  /** The v2 codes behind them (the document names the v2 code kept in `details.reason`). */
  coreCodes: ErrorCode[];
}

const CUSTOMER_AUTH: ErrorCode[] = ['AUTH_REQUIRED', 'AUTH_INVALID', 'AUTH_IP_NOT_ALLOWED', 'ACCOUNT_INACTIVE', 'AUTH_SCOPE_INSUFFICIENT'];
const BODY_ERRORS: ErrorCode[] = ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'];

/** Every v1 route registered in this process, by `METHOD path` (the same in every app built). */
const registry = new Map<string, V1RouteRecord>();

export function v1Routes(): V1RouteRecord[] {
  return [...registry.values()];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** v1 routes: the v1 error codes the route declares, per status. */
    v1ErrorCodes?: Record<string, V1ErrorCode[]>;
  }
}

export function v1Route<P extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined, B extends TSchema | undefined = undefined>(
  app: TypedApp, def: V1RouteDef<P, Q, B>,
): void {
  const coreCodes = [...new Set<ErrorCode>([
    ...UNIVERSAL_ERRORS, ...CUSTOMER_AUTH, 'RATE_LIMITED', ...(def.method === 'GET' ? [] : BODY_ERRORS), ...(def.errors ?? []),
  ])];
  const errorCodes = statusTable<V1ErrorCode[]>();
  for (const c of coreCodes) {
    const m = v1Mapping(c);
    const list = (errorCodes[String(m.status)] ??= []);
    if (!list.includes(m.code)) list.push(m.code);
  }
  for (const list of Object.values(errorCodes)) list.sort();
  const path = def.url.replace(/:(\w+)/g, '{$1}');
  registry.set(`${def.method} ${path}`, {
    method: def.method, path, url: def.url, operationId: def.operationId, tag: def.tag, summary: def.summary, description: def.description,
    params: def.params, querystring: def.querystring, body: def.body, headers: def.headers, status: def.status ?? 200, response: def.response, errorCodes, coreCodes,
  });
  const schema: Record<string, unknown> = { hide: true };
  if (def.params) schema.params = def.params;
  if (def.querystring) schema.querystring = def.querystring;
  if (def.body) schema.body = def.body;
  if (def.headers) schema.headers = def.headers;
  const status = def.status ?? 200;
  app.route({
    method: def.method,
    url: def.url,
    config: { area: def.area, credential: 'x-api-key', v1ErrorCodes: errorCodes, v1FieldRenames: def.renames ?? {} },
    schema,
    // A body whose fields are all optional may be left out, as in v2 (route-conventions.ts).
    preValidation: async (request) => {
      if (def.body && !((def.body as { required?: string[] }).required?.length)) request.body ??= {};
    },
    handler: async (request, reply) => {
      reply.code(status);
      return def.handler(request as never, reply);
    },
  });
}
