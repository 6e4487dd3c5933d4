import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { Event, EventQuery } from '../types.js';
import { type RequestOptions, sleep } from '../transport.js';

export interface FollowOptions {
  /** Between two looks for new events. Default 2000 ms. */
  intervalMs?: number;
  /** Also yield this many of the latest events that already exist (oldest first). Default 0. */
  backlog?: number;
  /** Ends the iteration: it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Most pages read in one look for new events (100 each); more new ones than that are skipped. */
const MAX_PAGES_PER_LOOK = 10;
/** Ids remembered to tell new events from seen ones. */
const REMEMBER = 2_000;

/** What happened to your resources, newest first, kept for a limited time (`EVENT_RETENTION_DAYS`). A key needs `events:read`. */
export class Events extends Resource {
  /** Newest first; filter by `type`, `resource_type`, `resource_id`. */
  list(query?: EventQuery, opts?: RequestOptions): PageIterator<Event> {
    return this.pages('/events', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<Event> {
    return this.read(`/events/${seg(id)}`, undefined, opts);
  }

  /**
   * New events as they are written, oldest first, until the signal aborts: it looks at the
   * newest page every `intervalMs` and yields the events it has not seen yet.
   */
  async *follow(query: Omit<EventQuery, 'page' | 'per_page'> = {}, opts: FollowOptions = {}): AsyncGenerator<Event> {
    const seen = new Set<string>();
    const remember = (id: string) => {
      seen.add(id);
      if (seen.size > REMEMBER) seen.delete(seen.values().next().value as string);
    };
    const req: RequestOptions = opts.signal ? { signal: opts.signal } : {};
    const first = await this.list({ ...query, per_page: 100 }, req).firstPage();
    for (const e of [...first.items].reverse()) remember(e.id);
    const backlog = opts.backlog ?? 0;
    if (backlog > 0) yield* first.items.slice(0, backlog).reverse();
    for (;;) {
      await sleep(opts.intervalMs ?? 2_000, opts.signal);
      const fresh: Event[] = [];
      let pages = 0;
      for await (const page of this.list({ ...query, per_page: 100 }, req).pages()) {
        const i = page.items.findIndex((e) => seen.has(e.id));
        fresh.push(...(i === -1 ? page.items : page.items.slice(0, i)));
        if (i !== -1 || ++pages >= MAX_PAGES_PER_LOOK) break;
      }
      for (const e of fresh.reverse()) {
        remember(e.id);
        yield e;
      }
    }
  }
}
