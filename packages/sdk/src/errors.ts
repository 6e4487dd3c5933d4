import type { components } from './generated/v2.js';

/** A field the API refused, from `error.errors[]` of a 422. */
export type FieldError = components['schemas']['FieldError'];

/** The API's codes, and the SDK's own for failures that never reached an answer. */
export type ErrorCode =
  | components['schemas']['ErrorCode']
  /** The request (or one attempt of it) took longer than `timeoutMs`. */
  | 'TIMEOUT'
  /** No answer: connection refused, reset, DNS failure… */
  | 'NETWORK_ERROR'
  /** An answer that is not the API's JSON (a proxy's HTML page, a cut body). */
  | 'INVALID_RESPONSE'
  /** `operations.wait` gave up before the operation finished (it goes on running). */
  | 'WAIT_TIMEOUT'
  /** A name given where an id was expected (`servers.find`) names more than one resource: see `matches`. */
  | 'AMBIGUOUS_NAME';

export interface HostcloudErrorInit {
  status: number;
  code: ErrorCode | (string & {});
  message: string;
  requestId?: string | undefined;
  fieldErrors?: FieldError[] | undefined;
  docUrl?: string | undefined;
  retryAfterS?: number | undefined;
  cause?: unknown;
}

/**
 * Every failure of a call: an error answer of the API (`status` is its HTTP status, `code` its
 * stable code) or a failure to get one (`status` 0: TIMEOUT, NETWORK_ERROR, INVALID_RESPONSE,
 * WAIT_TIMEOUT). Branch on `code`; quote `requestId` to support. A call cancelled through its
 * AbortSignal rejects with the signal's reason instead (an AbortError), as fetch does.
 */
export class HostcloudError extends Error {
  override readonly name = 'HostcloudError';
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly requestId: string | undefined;
  readonly fieldErrors: FieldError[];
  readonly docUrl: string | undefined;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfterS: number | undefined;

  constructor(init: HostcloudErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.fieldErrors = init.fieldErrors ?? [];
    this.docUrl = init.docUrl;
    this.retryAfterS = init.retryAfterS;
  }
}

interface ErrorEnvelope {
  error?: { code?: unknown; message?: unknown; errors?: unknown; request_id?: unknown; doc_url?: unknown };
}

/** The HostcloudError for an error answer (its envelope when it has one). */
export function errorFromAnswer(status: number, body: unknown, headers: Headers, retryAfterS: number | undefined): HostcloudError {
  const e = (body as ErrorEnvelope | undefined)?.error;
  const requestId = typeof e?.request_id === 'string' ? e.request_id : headers.get('x-request-id') ?? undefined;
  if (e && typeof e.code === 'string') {
    return new HostcloudError({
      status,
      code: e.code,
      message: typeof e.message === 'string' ? e.message : `HTTP ${status}`,
      requestId,
      fieldErrors: Array.isArray(e.errors) ? (e.errors as FieldError[]) : [],
      docUrl: typeof e.doc_url === 'string' ? e.doc_url : undefined,
      retryAfterS,
    });
  }
  return new HostcloudError({ status, code: 'INVALID_RESPONSE', message: `HTTP ${status} without the API's error envelope`, requestId, retryAfterS });
}

/** `servers.find(name)` found several servers by that name: pick one by its id. */
export class AmbiguousNameError extends HostcloudError {
  readonly matches: { id: string; name: string }[];

  constructor(what: string, name: string, matches: { id: string; name: string }[]) {
    super({ status: 0, code: 'AMBIGUOUS_NAME', message: `${matches.length} ${what}s are named "${name}": ${matches.map((m) => m.id).join(', ')}; use an id` });
    this.matches = matches;
  }
}
