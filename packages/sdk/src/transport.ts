// One HTTP call to the API, with what every call needs: the key, a timeout per attempt, the
// caller's AbortSignal, retries of 429 and 503 after Retry-After (and of network failures where
// repeating is safe), and the error envelope turned into a HostcloudError. Nothing here is
// Node-only: fetch, AbortController and setTimeout exist in every runtime the SDK supports.
import { HostcloudError, errorFromAnswer } from './errors.js';
import type { components } from './generated/v2.js';

export interface HostcloudOptions {
  /** The server's origin, e.g. `https://api.example.com` or `http://127.0.0.1:8080`; the SDK adds `/v2`. */
  baseUrl: string;
  /** An API key (`hc_live_…`, or `hc_test_…` for the sandbox). */
  token: string;
  /** Longest one attempt of a call may take, answer body included. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries of one call after 429 or 503 (or a network failure, where safe). Default 3. */
  maxRetries?: number;
  /** Longest wait before one retry; a Retry-After longer than this fails at once. Default 30 000 ms. */
  maxRetryDelayMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Cancels the call (and its retries and waits); it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** This call's timeout per attempt, instead of the client's. */
  timeoutMs?: number;
  /** This call's retries, instead of the client's (0: none). */
  maxRetries?: number;
}

/** Options of a billable create, which sends an Idempotency-Key. */
export interface CreateOptions extends RequestOptions {
  /**
   * The Idempotency-Key (a UUID). By default a new one is made per call and kept across its
   * retries, so a retried create is answered with the first answer and charged once. Pass your
   * own to make retries across calls (or processes) safe as well; `false` sends none.
   */
  idempotencyKey?: string | false;
}

export type Meta = components['schemas']['Meta'];
export type ListMeta = components['schemas']['ListMeta'];
export type Pagination = components['schemas']['Pagination'];

/** A successful answer: its `data`, `meta`, HTTP status and headers. */
export interface Answer<T> {
  data: T;
  meta: Meta & { pagination?: Pagination };
  status: number;
  headers: Headers;
}

export type QueryValue = string | number | boolean | undefined | null;

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below /v2, e.g. `/servers/srv_1`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
  /** Added to the timeout of each attempt (a long-poll's wait). */
  extraTimeoutMs?: number;
}

const DEFAULTS = { timeoutMs: 30_000, maxRetries: 3, maxRetryDelayMs: 30_000 };
/** First wait of a retry without Retry-After; doubled at each attempt. */
const BACKOFF_MS = 500;

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => { signal?.removeEventListener('abort', abort); resolve(); };
    const timer = setTimeout(done, ms);
    const abort = () => { clearTimeout(timer); reject(signal?.reason); };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** A UUID v4 (WebCrypto's, present in Node 20 and in browsers on secure origins). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

class TimedOut extends Error {}

export class Transport {
  readonly origin: string;
  private readonly token: string;
  private readonly options: Required<Pick<HostcloudOptions, 'timeoutMs' | 'maxRetries' | 'maxRetryDelayMs'>>;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;
  /** False once the server refused `?wait=` (it has no long-poll): operations.wait then polls. */
  longPoll = true;

  constructor(opts: HostcloudOptions) {
    if (!opts || typeof opts.baseUrl !== 'string' || !opts.baseUrl) throw new TypeError('Hostcloud: baseUrl is required (the server\'s origin, e.g. http://127.0.0.1:8080)');
    if (typeof opts.token !== 'string' || !opts.token) throw new TypeError('Hostcloud: token is required (an API key)');
    // The origin (a path prefix in front, such as a proxy's, is kept); a trailing /v2 is not doubled.
    this.origin = new URL(opts.baseUrl).href.replace(/\/+$/, '').replace(/\/v2$/, '');
    this.token = opts.token;
    this.options = {
      timeoutMs: opts.timeoutMs ?? DEFAULTS.timeoutMs,
      maxRetries: opts.maxRetries ?? DEFAULTS.maxRetries,
      maxRetryDelayMs: opts.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    };
    if (!opts.fetch && typeof globalThis.fetch !== 'function') throw new TypeError('Hostcloud: no fetch in this runtime; pass options.fetch');
    // Called unbound, a browser's fetch throws "Illegal invocation".
    this.fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = { ...opts.headers };
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const u = new URL(`${this.origin}/v2${path}`);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    }
    return u.href;
  }

  /** The call, retried where the rules above allow; resolves to the answer's envelope. */
  async request<T>(call: Call, opts: RequestOptions = {}): Promise<Answer<T>> {
    const maxRetries = opts.maxRetries ?? this.options.maxRetries;
    // Repeating after no answer at all is safe only when the request is idempotent.
    const safeToRepeat = call.method === 'GET' || call.method === 'PUT' || call.idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      let error: HostcloudError;
      try {
        return await this.attempt<T>(call, opts);
      } catch (e) {
        if (!(e instanceof HostcloudError)) throw e;
        error = e;
      }
      const retryable = error.status === 429 || error.status === 503 || (error.code === 'NETWORK_ERROR' && safeToRepeat);
      if (!retryable || attempt >= maxRetries) throw error;
      const asked = error.retryAfterS !== undefined ? error.retryAfterS * 1000 : undefined;
      if (asked !== undefined && asked > this.options.maxRetryDelayMs) throw error;
      const backoff = Math.min(BACKOFF_MS * 2 ** attempt, this.options.maxRetryDelayMs);
      // A little jitter, so that many clients refused together do not come back together.
      await sleep((asked ?? backoff) + Math.floor(Math.random() * 100), opts.signal);
    }
  }

  private async attempt<T>(call: Call, opts: RequestOptions): Promise<Answer<T>> {
    const { signal } = opts;
    if (signal?.aborted) throw signal.reason;
    const headers: Record<string, string> = { ...this.headers, Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['Idempotency-Key'] = call.idempotencyKey;

    // One controller per attempt: aborted by the caller's signal or by this attempt's timer.
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = (opts.timeoutMs ?? this.options.timeoutMs) + (call.extraTimeoutMs ?? 0);
    const timer = setTimeout(() => controller.abort(new TimedOut()), timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(this.url(call.path, call.query), {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal: controller.signal,
      });
      text = await res.text();
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.reason instanceof TimedOut) {
        throw new HostcloudError({ status: 0, code: 'TIMEOUT', message: `${call.method} ${call.path}: no answer within ${timeoutMs} ms`, cause: e });
      }
      const why = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
      throw new HostcloudError({ status: 0, code: 'NETWORK_ERROR', message: `${call.method} ${this.origin}/v2${call.path}: ${why}`, cause: e });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const wait = retryAfterMs(res.headers.get('retry-after'));
      throw errorFromAnswer(res.status, body, res.headers, wait === undefined ? undefined : wait / 1000);
    }
    const envelope = body as { data?: T; meta?: Answer<T>['meta'] } | undefined;
    if (!envelope || typeof envelope !== 'object' || !('data' in envelope)) {
      throw new HostcloudError({ status: res.status, code: 'INVALID_RESPONSE', message: `${call.method} ${call.path}: HTTP ${res.status} without the API's envelope`, requestId: res.headers.get('x-request-id') ?? undefined });
    }
    return { data: envelope.data as T, meta: envelope.meta ?? { request_id: res.headers.get('x-request-id') ?? '', version: '' }, status: res.status, headers: res.headers };
  }
}
