// Every failure, from a rule, a schema, the body parser or a bug, leaves as the v2 error envelope.
// Unknown errors are logged in full and answered as INTERNAL_ERROR with no detail: no stack,
// no SQL, no internals ever reach the client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.ts';
import { ERROR_CODES } from './error-codes.ts';
import { fieldErrors } from './validation.ts';

// The database is down, restarting or out of connections: the client should retry, not report a bug.
// 57014 is a statement cancelled by statement_timeout; the pool's own connect timeout has no code.
// 40P01 (deadlock), 40001 (serialization) and 55P03 (lock_timeout) are transient contention: the
// transaction was rolled back whole, so a retry is safe.
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300', '57014', '40P01', '40001', '55P03']);
const UNAVAILABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated/;

export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown }).code;
  // Text PostgreSQL cannot store (a NUL that slipped past the door, invalid UTF-8): bad input.
  if (code === '22021' || code === '22P05') {
    return new ApiError('VALIDATION_FAILED', 'A parameter contains characters that cannot be stored');
  }
  if ((typeof code === 'string' && UNAVAILABLE.has(code)) || (err instanceof Error && UNAVAILABLE_MESSAGE.test(err.message))) {
    return new ApiError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly');
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

export function sendError(publicUrl: string, err: unknown, request: FastifyRequest, reply: FastifyReply) {
  let api = toApiError(err);
  if (!api) {
    request.log.error({ err }, 'unhandled error');
    api = new ApiError('INTERNAL_ERROR', 'An unexpected error occurred; contact support with the request_id');
  }
  for (const [k, v] of Object.entries(api.headers)) reply.header(k, v);
  return reply
    .code(ERROR_CODES[api.code].status)
    .type('application/json; charset=utf-8')
    .send(errorBody(publicUrl, request.id, api));
}
