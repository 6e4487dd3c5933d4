// Conventions applied to every route of a family as it is registered (an onRoute hook), so a
// route file states only what is its own:
//  - error responses: the codes the route names with errorResponses(...) plus those that follow
//    from its config — the key (customer or admin), the rate limit, a method that carries a body —
//    kept in `config.errorCodes` for the document (docs/openapi.ts) and the check below. The error
//    schemas themselves leave `schema.response`: the envelope is serialized as plain JSON, and
//    compiling a serializer per route and status would make every start several times slower;
//  - a body whose fields are all optional may be left out (validated as `{}`);
//  - a component is referenced, never inlined (an inlined one would be a second schema with its $id);
//  - (closeQueryString, for every route of v2, v1 and admin) unknown query parameters are refused.
// And, for tests, a check that every error a route answers is one its document declares.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ErrorCode } from '../core/errors.ts';
import { type ErrorCodesByStatus, byStatus, declaredCodes, statusTable } from './error-responses.ts';
import { componentNamed } from './schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by applyRouteConventions: the error codes the route declares, per status. */
    errorCodes?: ErrorCodesByStatus;
  }
}

const CUSTOMER_AUTH: ErrorCode[] = ['AUTH_REQUIRED', 'AUTH_INVALID', 'AUTH_IP_NOT_ALLOWED', 'ACCOUNT_INACTIVE', 'AUTH_SCOPE_INSUFFICIENT'];
const ADMIN_AUTH: ErrorCode[] = ['AUTH_REQUIRED', 'AUTH_INVALID', 'AUTH_IP_NOT_ALLOWED', 'AUTH_SCOPE_INSUFFICIENT', 'RATE_LIMITED'];
/** Fastify reads a body on these methods (a DELETE may carry one too), so its transport can fail. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_ERRORS: ErrorCode[] = ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The codes a route answers because of how it is reached, not because of what it does. */
function transportCodes(route: RouteOptions): ErrorCode[] {
  const config = route.config ?? {};
  const auth = config.auth ?? (config.area ? 'customer' : 'none');
  const codes: ErrorCode[] = [];
  if (auth === 'customer') codes.push(...CUSTOMER_AUTH);
  // A customer panel session (auth.ts) may call v2 too; its writes carry the CSRF token.
  // A console session (auth.ts) calls the admin API too, its writes with the CSRF token.
  if (auth !== 'none' && auth !== 'metrics' && [route.method].flat().some((m) => !SAFE_METHODS.has(m.toUpperCase()))) codes.push('CSRF_TOKEN_INVALID');
  // The panel's own routes: a session that is missing, ended, of an inactive account or sub-user, or without the permission.
  if (auth === 'panel' || auth === 'panel-open') codes.push('AUTH_REQUIRED', 'AUTH_INVALID', 'ACCOUNT_INACTIVE', 'AUTH_SCOPE_INSUFFICIENT');
  if (auth === 'admin') codes.push(...ADMIN_AUTH);
  if (auth === 'staff-open') codes.push('AUTH_REQUIRED', 'AUTH_INVALID', 'RATE_LIMITED');
  if (config.rateLimit !== false) codes.push('RATE_LIMITED');
  if ([route.method].flat().some((m) => BODY_METHODS.has(m.toUpperCase()))) codes.push(...BODY_ERRORS);
  return codes;
}

function resolve(schema: unknown): { required?: string[] } | undefined {
  const s = schema as { $ref?: string } | undefined;
  return (s?.$ref ? componentNamed(s.$ref) : s) as { required?: string[] } | undefined;
}

function refuseInlinedComponents(where: string, schema: unknown, root = true): void {
  if (typeof schema !== 'object' || schema === null) return;
  const id = (schema as { $id?: unknown }).$id;
  if (!root && typeof id === 'string') throw new Error(`${where}: the component ${id} is inlined; use ref(${id}Schema)`);
  for (const v of Object.values(schema)) refuseInlinedComponents(where, v, false);
}

/** A route schema → the codes its errorResponses() named (a GET's HEAD route shares its schema). */
const named = new WeakMap<object, ErrorCode[]>();

export function applyRouteConventions(route: RouteOptions): void {
  const schema = route.schema as (Record<string, unknown> & { response?: Record<string, unknown>; body?: unknown }) | undefined;
  const where = `${[route.method].flat().join(',')} ${route.url}`;
  if (!schema?.response) return;
  let own = named.get(schema);
  if (!own) {
    for (const part of ['body', 'querystring', 'params', 'headers']) refuseInlinedComponents(where, schema[part], false);
    for (const s of Object.values(schema.response)) refuseInlinedComponents(where, s, false);
    const errors = Object.values(schema.response).filter((s) => declaredCodes(s) !== undefined);
    if (errors.length === 0) throw new Error(`${where}: its response schemas need ...errorResponses(<the codes it raises>)`);
    own = errors.flatMap((s) => declaredCodes(s)!);
    named.set(schema, own);
    const success = statusTable<unknown>();
    for (const [status, s] of Object.entries(schema.response)) if (declaredCodes(s) === undefined) success[status] = s;
    schema.response = success;
  }
  const errorCodes = byStatus([...own, ...transportCodes(route)]);
  for (const list of Object.values(errorCodes)) list.sort();
  route.config = { ...route.config, errorCodes };

  const body = resolve(schema.body);
  if (body && !(body.required?.length)) {
    // Nothing is required, so sending no body at all is the same as sending `{}`.
    const fillBody = async (request: FastifyRequest) => {
      request.body ??= {};
    };
    route.preValidation = [...[route.preValidation ?? []].flat(), fillBody] as RouteOptions['preValidation'];
  }
}

/** One object for every route without parameters, so its validator is compiled once (Ajv caches by schema). */
const NO_QUERY = Object.freeze({ type: 'object', properties: Object.freeze({}), additionalProperties: false });

/**
 * Every route of the APIs refuses query parameters it does not know (422 naming each), as it
 * refuses unknown body fields: a typo (`?pre_page=`) or a filter that does not exist (`?name=`)
 * must not quietly answer everything. A route without a querystring schema gets one that admits
 * nothing; a route whose schema admits extras does not start.
 */
export function closeQueryString(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  if (schema.querystring === undefined) {
    schema.querystring = NO_QUERY;
    return;
  }
  const q = resolve(schema.querystring) as { type?: unknown; additionalProperties?: unknown } | undefined;
  if (q?.type !== 'object' || q.additionalProperties !== false) {
    throw new Error(`${[route.method].flat().join(',')} ${route.url}: its querystring schema must be an object with additionalProperties: false (unknown query parameters are refused)`);
  }
}

export interface UndocumentedError {
  method: string;
  route: string;
  status: number;
  code: string;
}

/**
 * Reports every error response whose code the route does not declare for that status (tests
 * turn this on for the whole suite, so the server is held to its own document).
 */
export function checkDocumentedErrors(app: FastifyInstance, report: (e: UndocumentedError) => void): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const declaredByStatus = request.routeOptions.config?.errorCodes;
    if (reply.statusCode < 400 || !declaredByStatus || typeof payload !== 'string') return payload;
    let code = '(no error envelope)';
    try {
      code = String((JSON.parse(payload) as { error?: { code?: unknown } }).error?.code ?? code);
    } catch {
      // Not JSON: reported as it is.
    }
    if (!declaredByStatus[String(reply.statusCode)]?.includes(code as ErrorCode)) {
      report({ method: request.method, route: request.routeOptions.url ?? request.url, status: reply.statusCode, code });
    }
    return payload;
  });
}
