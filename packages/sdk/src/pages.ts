// Lists: an async iterable over every item of every page, fetching a page only when the items
// before it have been used. `for await (const s of hc.servers.list())` reads them all.
import type { Answer, Pagination, RequestOptions } from './transport.js';

/** One page of a list, as the API answered it. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

export type PageFetcher<T> = (page: number, opts: RequestOptions) => Promise<Answer<T[]>>;

export class PageIterator<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: PageFetcher<T>, private readonly startPage: number, private readonly opts: RequestOptions) {}

  /** The pages from the first asked for to the last, one request each. */
  async *pages(): AsyncGenerator<Page<T>> {
    for (let page = this.startPage; ; page++) {
      const answer = await this.fetchPage(page, this.opts);
      const pagination = answer.meta.pagination ?? { page, per_page: answer.data.length, total: answer.data.length, total_pages: page };
      yield { items: answer.data, pagination };
      if (answer.data.length === 0 || page >= pagination.total_pages) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item (or the first `limit`) in an array. */
  async toArray(limit = Infinity): Promise<T[]> {
    const out: T[] = [];
    if (limit <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Only the first page asked for (one request), with its pagination. */
  async firstPage(): Promise<Page<T>> {
    for await (const page of this.pages()) return page;
    throw new Error('unreachable: pages() always yields a first page');
  }
}
