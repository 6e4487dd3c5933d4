// Rules fail with a stable machine-readable code and an English message; they never pick an
// HTTP status. Each adapter (v2, v1, admin) maps codes to its own statuses and envelope.

/**
 * The error codes of the Hosting Cloud API v2, plus PAYLOAD_TOO_LARGE (a body over BODY_LIMIT_BYTES) and
 * CSRF_TOKEN_INVALID (a customer panel session's write without its CSRF token).
 */
export type ErrorCode =
  | 'REQUEST_MALFORMED'
  | 'METHOD_NOT_ALLOWED'
  | 'ENDPOINT_NOT_FOUND'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'AUTH_REQUIRED'
  | 'AUTH_INVALID'
  | 'AUTH_IP_NOT_ALLOWED'
  | 'ACCOUNT_INACTIVE'
  | 'AUTH_SCOPE_INSUFFICIENT'
  | 'CSRF_TOKEN_INVALID'
  | 'RESOURCE_NOT_FOUND'
  | 'STATE_CONFLICT'
  | 'IDEMPOTENCY_KEY_CONFLICT'
  | 'VALIDATION_FAILED'
  | 'INSUFFICIENT_BALANCE'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMITED'
  | 'LOCATION_INVALID'
  | 'OS_VERSION_INVALID'
  | 'INVALID_PASSWORD'
  | 'HOSTNAME_IN_USE'
  | 'PLAN_NOT_FOUND'
  | 'CAPACITY_UNAVAILABLE'
  | 'NODE_INCOMPATIBLE_LIVE_MIGRATE'
  | 'SOURCE_NOT_FOUND'
  | 'NOT_IMPLEMENTED'
  | 'INTERNAL_ERROR'
  | 'UPSTREAM_ERROR'
  | 'SERVICE_UNAVAILABLE';

export interface FieldError {
  field: string;
  /** INVALID unless a rule has a more precise reason. */
  code: string;
  message: string;
}

/** What an error tells besides its code, in the core's words; each adapter renders it (HTTP: headers). */
export interface ErrorHints {
  /** Seconds after which trying again may succeed (HTTP: Retry-After). */
  retryAfterS?: number;
  /** The methods the path admits, for METHOD_NOT_ALLOWED (HTTP: Allow). */
  allow?: readonly string[];
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[];
  readonly hints: ErrorHints;

  constructor(code: ErrorCode, message: string, errors: FieldError[] = [], hints: ErrorHints = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.errors = errors;
    this.hints = hints;
  }
}

export function notFound(what: string): ApiError {
  return new ApiError('RESOURCE_NOT_FOUND', `${what} not found`);
}

export function invalid(field: string, message: string): ApiError {
  return new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [{ field, code: 'INVALID', message }]);
}
