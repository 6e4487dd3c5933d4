// What every resource object shares: GET, list, write and billable-create calls on the transport.
import { PageIterator } from './pages.js';
import { type CreateOptions, type QueryValue, type RequestOptions, type Transport, newIdempotencyKey } from './transport.js';

/** A path segment from an id (ids are strings or numbers; anything else is escaped). */
export const seg = (id: string | number): string => encodeURIComponent(String(id));

type Q = object | undefined;

export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected async read<T>(path: string, query?: Q, opts?: RequestOptions): Promise<T> {
    return (await this.transport.request<T>({ method: 'GET', path, query: query as Record<string, QueryValue> }, opts)).data;
  }

  /** Every page of a list; `page` in the query is where to start (default 1). */
  protected pages<T>(path: string, query: Q, opts: RequestOptions = {}): PageIterator<T> {
    const { page = 1, ...rest } = (query ?? {}) as Record<string, QueryValue>;
    return new PageIterator<T>((p, o) => this.transport.request<T[]>({ method: 'GET', path, query: { ...rest, page: p } }, o), Number(page), opts);
  }

  protected async write<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, opts?: RequestOptions, query?: Q): Promise<T> {
    return (await this.transport.request<T>({ method, path, body, query: query as Record<string, QueryValue> }, opts)).data;
  }

  /** A billable POST: with an Idempotency-Key (made here unless the caller gives one or `false`). */
  protected async billable<T>(path: string, body: unknown, opts: CreateOptions = {}): Promise<T> {
    const idempotencyKey = opts.idempotencyKey === false ? undefined : (opts.idempotencyKey ?? newIdempotencyKey());
    return (await this.transport.request<T>({ method: 'POST', path, body, idempotencyKey }, opts)).data;
  }
}
