// Every call the page makes: the panel's own API (/panel/api) and v2 (/v2), both with the session
// cookie and, on writes, the CSRF token. Errors keep the envelope's code, message and per-field
// errors, so forms can show each next to its field.
import { ApiError, type FieldError } from '../../ui/api-error.ts';
import type { Money } from './api-types.ts';

export type { Money };

export { ApiError };
export type { FieldError };

let csrf = '';
let onSignedOut: () => void = () => {};

export function setCsrf(token: string): void {
  csrf = token;
}

/** Called when a request finds the session gone (the app shows the sign-in page). */
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

/** What a `Dry-Run: true` request would do to the balance (the API's own computation). */
export interface DryRun {
  charged: Money;
  refunded: Money;
  balance_after: Money;
}

export interface Envelope<T> {
  data: T;
  meta: { request_id: string; pagination?: { page: number; per_page: number; total: number; total_pages: number }; dry_run?: DryRun };
}

async function send<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Envelope<T>> {
  const h: Record<string, string> = { Accept: 'application/json', ...headers };
  if (method !== 'GET') h['X-CSRF-Token'] = csrf;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached; check your connection and try again');
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): reported below by status.
  }
  if (!res.ok) {
    const e = (parsed as { error?: { code: string; message: string; errors?: FieldError[]; request_id?: string } } | null)?.error;
    const err = new ApiError(res.status, e?.code ?? 'HTTP_ERROR', e?.message ?? `The server answered ${res.status}`, e?.errors ?? [], e?.request_id ?? '');
    if (res.status === 401 && !url.startsWith('/panel/api/sign-in')) onSignedOut();
    throw err;
  }
  return parsed as Envelope<T>;
}

/** The panel's own API: /panel/api/<path>. */
export const panel = {
  get: <T>(path: string) => send<T>('GET', `/panel/api${path}`),
  post: <T>(path: string, body?: unknown) => send<T>('POST', `/panel/api${path}`, body ?? {}),
  patch: <T>(path: string, body: unknown) => send<T>('PATCH', `/panel/api${path}`, body),
  del: <T>(path: string) => send<T>('DELETE', `/panel/api${path}`),
};

/** A random UUID (v4) for an Idempotency-Key; crypto.randomUUID exists only on https and localhost. */
export function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

interface PostOptions {
  idempotent?: boolean;
  /** `Dry-Run: true`: run, priced and rolled back — the answer's meta.dry_run is the price. */
  dryRun?: boolean;
}

/** The v2 API with the session: /v2/<path>. Billable creates carry an Idempotency-Key. */
export const v2 = {
  get: <T>(path: string) => send<T>('GET', `/v2${path}`),
  post: <T>(path: string, body?: unknown, opts: PostOptions = {}) =>
    send<T>('POST', `/v2${path}`, body, {
      ...(opts.idempotent && !opts.dryRun ? { 'Idempotency-Key': uuid() } : {}),
      ...(opts.dryRun ? { 'Dry-Run': 'true' } : {}),
    }),
  put: <T>(path: string, body: unknown) => send<T>('PUT', `/v2${path}`, body),
  patch: <T>(path: string, body: unknown) => send<T>('PATCH', `/v2${path}`, body),
  del: <T>(path: string) => send<T>('DELETE', `/v2${path}`),
};


export function money(m: Money | null | undefined): string {
  return m ? `${m.amount} ${m.currency}` : '—';
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
