import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { CreateOptions, RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

/** Web hosting accounts on the control panel. */
export class WebHosting extends Resource {
  list(query?: Query<'listWebHosting'>, opts?: RequestOptions): PageIterator<Item<'listWebHosting'>> {
    return this.pages('/web-hosting', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<Data<'getWebHosting'>> {
    return this.read(`/web-hosting/${seg(id)}`, undefined, opts);
  }

  /** Billable. Answers the account `pending` and its `operation`. */
  create(body: Body<'createWebHosting'>, opts?: CreateOptions): Promise<Data<'createWebHosting'>> {
    return this.billable('/web-hosting', body, opts);
  }

  /** Billable: one more cycle. */
  renew(id: string, body: Body<'renewWebHosting'> = {}, opts?: CreateOptions): Promise<Data<'renewWebHosting'>> {
    return this.billable(`/web-hosting/${seg(id)}/renew`, body, opts);
  }

  cancel(id: string, body: Body<'cancelWebHosting'> = {}, opts?: RequestOptions): Promise<Data<'cancelWebHosting'>> {
    return this.write('POST', `/web-hosting/${seg(id)}/cancel`, body, opts);
  }

  /** A single-use control-panel login link. */
  login(id: string, opts?: RequestOptions): Promise<Data<'getWebHostingLogin'>> {
    return this.read(`/web-hosting/${seg(id)}/login`, undefined, opts);
  }

  packages(query?: Query<'listWebHostingPackages'>, opts?: RequestOptions): PageIterator<Item<'listWebHostingPackages'>> {
    return this.pages('/web-hosting-packages', query, opts);
  }
}
