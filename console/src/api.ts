// Every call the console makes: the admin API (/admin/v1) with the staff session cookie and, on
// writes, the CSRF token. Errors keep the envelope's code, message and per-field errors, so forms
// can show each next to its field.
import { ApiError, type FieldError } from '../../ui/api-error.ts';

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

export interface Pagination {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export interface Envelope<T> {
  data: T;
  meta: { request_id: string; pagination?: Pagination };
}

async function send<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const h: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') h['X-CSRF-Token'] = csrf;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/admin/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
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
    if (res.status === 401 && !path.startsWith('/session')) onSignedOut();
    throw err;
  }
  return parsed as Envelope<T>;
}

/** The admin API: /admin/v1/<path>. */
export const admin = {
  get: <T>(path: string) => send<T>('GET', path),
  post: <T>(path: string, body?: unknown) => send<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => send<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => send<T>('PATCH', path, body),
  del: <T>(path: string) => send<T>('DELETE', path),
};

/** A query string from the values that are set (`?a=1&b=x`, or '' when none is). */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

/** US cents as dollars: 123456 → "$1,234.56". */
export function cents(c: number | null | undefined): string {
  if (c === null || c === undefined) return '—';
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
