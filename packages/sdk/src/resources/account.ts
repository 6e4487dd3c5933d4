import { Resource } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type { Data, Item, Query } from '../types.js';

/** The authenticated customer (read only here: writes are the web panel's). */
export class AccountResource extends Resource {
  get(opts?: RequestOptions): Promise<Data<'getAccount'>> {
    return this.read('/account', undefined, opts);
  }

  apiKeys(query?: Query<'listApiKeys'>, opts?: RequestOptions): PageIterator<Item<'listApiKeys'>> {
    return this.pages('/account/api-keys', query, opts);
  }

  /** The calling key's allowed addresses. */
  ipAllowlist(query?: Query<'listIpAllowlist'>, opts?: RequestOptions): PageIterator<Item<'listIpAllowlist'>> {
    return this.pages('/account/ip-allowlist', query, opts);
  }
}
