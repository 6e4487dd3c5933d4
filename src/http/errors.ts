// Every failure, from a rule, a schema, the body parser or a bug, leaves as the v2 error envelope.
// Unknown errors are logged in full and answered as INTERNAL_ERROR with no detail: no stack,
// no SQL, no internals ever reach the client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.ts';
import { classifyDatabaseError } from '../db/failures.ts';
import { ERROR_CODES } from './error-codes.ts';
import { fieldErrors } from './validation.ts';

/** Seconds a client is asked to wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;
/** … and after transient contention (a lock or statement timeout, a deadlock): retry at once. */
export const CONTENTION_RETRY_AFTER_S = 1;

/**
 * Any error → the ApiError a client gets, or null for a bug (answered as INTERNAL_ERROR). Every
 * adapter (v2, admin, v1) maps through here, so "the database is unavailable" is 503
 * SERVICE_UNAVAILABLE with Retry-After everywhere (the classification is src/db/failures.ts).
 */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (typeof err !== 'object' || err === null) return null;
  switch (classifyDatabaseError(err)) {
    case 'unavailable':
      return new ApiError('SERVICE_UNAVAILABLE', 'The database is temporarily unavailable; retry shortly', [], { retryAfterS: UNAVAILABLE_RETRY_AFTER_S });
    case 'contention':
      return new ApiError('SERVICE_UNAVAILABLE', 'The service is busy; retry shortly', [], { retryAfterS: CONTENTION_RETRY_AFTER_S });
    case 'bad_text':
      // Text PostgreSQL cannot store that slipped past the door: bad input, not a bug.
      return new ApiError('VALIDATION_FAILED', 'A parameter contains characters that cannot be stored');
    case null:
      break;
  }
  const e = err as Partial<FastifyError> & { validation?: unknown; validationContext?: string };
  if (Array.isArray(e.validation)) {
    return new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', fieldErrors(e.validation, e.validationContext ?? 'body'));
  }
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  }
  if (e.statusCode === 400) return new ApiError('REQUEST_MALFORMED', 'The request could not be read');
  if (e.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (e.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json');
  return null;
}

export function errorBody(publicUrl: string, requestId: string, err: ApiError) {
  return {
    error: {
      code: err.code,
      message: err.message,
      errors: err.errors,
      request_id: requestId,
      doc_url: `${publicUrl}/v2/docs/errors#${err.code}`,
    },
  };
}

/** An outage answers many requests at once: one log line per this interval says so, with a count. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;
let outage = { loggedAt: 0, since: 0 };

function noteUnavailable(err: unknown, request: FastifyRequest): void {
  const now = Date.now();
  outage.since++;
  if (now - outage.loggedAt < OUTAGE_LOG_INTERVAL_MS) return;
  request.log.warn({ err, answered_503: outage.since }, 'database unavailable; answering 503');
  outage = { loggedAt: now, since: 0 };
}

/** The HTTP headers of an error's hints: Retry-After, Allow. */
export function hintHeaders(api: ApiError): Record<string, string> {
  const h: Record<string, string> = {};
  if (api.hints.retryAfterS !== undefined) h['Retry-After'] = String(api.hints.retryAfterS);
  if (api.hints.allow !== undefined) h.Allow = api.hints.allow.join(', ');
  return h;
}

export function sendError(publicUrl: string, err: unknown, request: FastifyRequest, reply: FastifyReply) {
  let api = toApiError(err);
  if (!api) {
    request.log.error({ err }, 'unhandled error');
    api = new ApiError('INTERNAL_ERROR', 'An unexpected error occurred; contact support with the request_id');
  } else if (api !== err && api.code === 'SERVICE_UNAVAILABLE') {
    noteUnavailable(err, request);
  }
  for (const [k, v] of Object.entries(hintHeaders(api))) reply.header(k, v);
  if (api.code === 'SERVICE_UNAVAILABLE' && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
  return reply
    .code(ERROR_CODES[api.code].status)
    .type('application/json; charset=utf-8')
    .send(errorBody(publicUrl, request.id, api));
}
