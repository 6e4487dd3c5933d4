// The v1 error envelope `{success:false, error:{code, message, details}}` with v1's statuses.
// The core raises v2 codes; v1 renames the three families its document names (INVALID_API_KEY,
// FORBIDDEN, NOT_FOUND) and keeps every other code, so a v1 client can still branch on it.
// v1's document lists 400, 401, 403, 404, 422, 429 and 500; codes whose v2 status v1 lacks are
// folded onto the nearest of those, except 405 (HTTP itself needs it, with Allow) and 502/503
// (outages must stay retryable, with Retry-After, as everywhere in this service).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../../core/errors.ts';
import { UNAVAILABLE_RETRY_AFTER_S, hintHeaders, toApiError } from '../errors.ts';

export type V1ErrorCode = ErrorCode | 'INVALID_API_KEY' | 'FORBIDDEN' | 'NOT_FOUND';

/** A v2 code → the v1 status and code it answers as. */
export function v1Mapping(code: ErrorCode): { status: number; code: V1ErrorCode } {
  switch (code) {
    case 'AUTH_REQUIRED': case 'AUTH_INVALID': case 'AUTH_IP_NOT_ALLOWED':
      return { status: 401, code: 'INVALID_API_KEY' };
    case 'ACCOUNT_INACTIVE': case 'AUTH_SCOPE_INSUFFICIENT': case 'CSRF_TOKEN_INVALID':
      return { status: 403, code: 'FORBIDDEN' };
    case 'RESOURCE_NOT_FOUND': case 'ENDPOINT_NOT_FOUND':
      return { status: 404, code: 'NOT_FOUND' };
    case 'METHOD_NOT_ALLOWED':
      return { status: 405, code };
    case 'REQUEST_MALFORMED': case 'UNSUPPORTED_MEDIA_TYPE': case 'PAYLOAD_TOO_LARGE':
      return { status: 400, code };
    case 'RATE_LIMITED':
      return { status: 429, code };
    case 'INTERNAL_ERROR':
      return { status: 500, code };
    case 'NOT_IMPLEMENTED':
      return { status: 501, code };
    case 'UPSTREAM_ERROR':
      return { status: 502, code };
    case 'SERVICE_UNAVAILABLE':
      return { status: 503, code };
    // Validation, balance, quota, references, and the state conflicts v2 answers with 409.
    default:
      return { status: 422, code };
  }
}

/** What each v1 error code means, for the v1 document. */
export const V1_MEANINGS: Partial<Record<V1ErrorCode, string>> = {
  INVALID_API_KEY: 'The X-API-Key is missing, unknown or revoked, or the calling IP is not on its allowlist.',
  FORBIDDEN: 'The key lacks the scope for this operation, or the account is not active.',
  NOT_FOUND: 'The resource does not exist or belongs to another account (or there is no such endpoint).',
};

/**
 * Field names of the core (v2) → the route's v1 field names, where they differ (a v1 route
 * passes `server_name` on as the core's `name`: a problem with `name` is reported as `server_name`).
 */
export type FieldRenames = Record<string, string>;

export function v1ErrorBody(requestId: string, err: ApiError, renames: FieldRenames = {}) {
  const { code } = v1Mapping(err.code);
  const details: Record<string, unknown> = { request_id: requestId };
  if (code !== err.code) details.reason = err.code;
  if (err.errors.length > 0) {
    const fields: Record<string, string> = {};
    for (const e of err.errors) {
      const name = renames[e.field] ?? e.field;
      fields[name] = fields[name] ? `${fields[name]}; ${e.message}` : e.message;
    }
    details.fields = fields;
  }
  return { success: false as const, error: { code, message: err.message, details } };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** v1 routes: core field names → the route's own (v1ErrorBody). */
    v1FieldRenames?: FieldRenames;
  }
}

export function sendV1Error(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  let api = toApiError(err);
  if (!api) {
    request.log.error({ err }, 'unhandled error');
    api = new ApiError('INTERNAL_ERROR', 'An unexpected error occurred; contact support with the request_id');
  }
  for (const [k, v] of Object.entries(hintHeaders(api))) reply.header(k, v);
  if (api.code === 'SERVICE_UNAVAILABLE' && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
  return reply
    .code(v1Mapping(api.code).status)
    .type('application/json; charset=utf-8')
    .send(v1ErrorBody(request.id, api, request.routeOptions?.config?.v1FieldRenames));
}
