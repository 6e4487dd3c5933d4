// Every error code with its v2 HTTP status and meaning: the error handler maps with it and the
// /v2/docs/errors page is rendered from it, so the two cannot disagree.
import type { ErrorCode } from '../core/errors.ts';

export interface ErrorCodeInfo {
  status: number;
  meaning: string;
}

export const ERROR_CODES: Record<ErrorCode, ErrorCodeInfo> = {
  REQUEST_MALFORMED: { status: 400, meaning: 'The body is not valid JSON or not valid UTF-8 or nests arrays and objects more than 64 levels deep, or the URL is not validly percent-encoded UTF-8.' },
  AUTH_REQUIRED: { status: 401, meaning: 'No API key was sent. Send `Authorization: Bearer <API_KEY>`; the `?api_key=` query fallback does not exist in v2.' },
  AUTH_INVALID: { status: 401, meaning: 'The API key is unknown, malformed or revoked.' },
  AUTH_IP_NOT_ALLOWED: { status: 403, meaning: "The calling IP address is not in the key's IP allowlist." },
  ACCOUNT_INACTIVE: { status: 403, meaning: 'The account is suspended or closed.' },
  AUTH_SCOPE_INSUFFICIENT: { status: 403, meaning: 'The API key lacks the scope this operation needs (`<area>:read` for GET, `<area>:write` otherwise).' },
  CSRF_TOKEN_INVALID: { status: 403, meaning: 'A write made with a customer panel session (a cookie, not an API key) lacks the session\'s CSRF token in `X-CSRF-Token`, or it is not valid. An addition of this service to the Hosting Cloud API v2.' },
  ENDPOINT_NOT_FOUND: { status: 404, meaning: 'The endpoint does not exist.' },
  RESOURCE_NOT_FOUND: { status: 404, meaning: 'The resource does not exist or belongs to another account.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The endpoint exists but not with this method; the `Allow` header lists the methods it has.' },
  STATE_CONFLICT: { status: 409, meaning: 'The state of the resource does not allow the operation.' },
  IDEMPOTENCY_KEY_CONFLICT: { status: 409, meaning: 'The Idempotency-Key was used before with a different request, or that request is still running.' },
  HOSTNAME_IN_USE: { status: 409, meaning: 'An active server already has this hostname.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than the server accepts (BODY_LIMIT_BYTES, 1 MiB by default). An addition of this service to the Hosting Cloud API v2.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'A request body must be sent as UTF-8 JSON: `Content-Type: application/json`, with no charset or `charset=utf-8`.' },
  VALIDATION_FAILED: { status: 422, meaning: 'One or more parameters are invalid; `errors[]` names each field.' },
  INSUFFICIENT_BALANCE: { status: 422, meaning: 'The balance is too low for the charge.' },
  QUOTA_EXCEEDED: { status: 422, meaning: 'A quota or limit would be exceeded.' },
  LOCATION_INVALID: { status: 422, meaning: 'The location is not available to the account for this request.' },
  OS_VERSION_INVALID: { status: 422, meaning: 'The operating system version is invalid.' },
  INVALID_PASSWORD: { status: 422, meaning: 'The password needs at least 8 characters with upper case, lower case, digit and symbol.' },
  PLAN_NOT_FOUND: { status: 422, meaning: 'The plan does not exist.' },
  CAPACITY_UNAVAILABLE: { status: 422, meaning: 'There is no capacity for the request.' },
  NODE_INCOMPATIBLE_LIVE_MIGRATE: { status: 422, meaning: 'Live migration is impossible between these CPU vendors; use cold migration.' },
  SOURCE_NOT_FOUND: { status: 422, meaning: 'The source snapshot or backup was not found.' },
  RATE_LIMITED: { status: 429, meaning: 'Too many requests; wait the number of seconds in `Retry-After`.' },
  INTERNAL_ERROR: { status: 500, meaning: 'An unexpected error; contact support with the request_id.' },
  NOT_IMPLEMENTED: { status: 501, meaning: 'The operation is done in the web panel, not through the API.' },
  UPSTREAM_ERROR: { status: 502, meaning: 'An upstream provider failed.' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'Temporarily unavailable (e.g. the database is restarting); retry after the seconds in `Retry-After`.' },
};
