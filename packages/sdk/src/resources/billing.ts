import { Resource } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type { Data, Item, Query } from '../types.js';

/** The prepaid balance, its ledger and what will be charged next. */
export class Billing extends Resource {
  balance(opts?: RequestOptions): Promise<Data<'getBalance'>> {
    return this.read('/billing/balance', undefined, opts);
  }

  /** Newest first. */
  transactions(query?: Query<'listTransactions'>, opts?: RequestOptions): PageIterator<Item<'listTransactions'>> {
    return this.pages('/billing/transactions', query, opts);
  }

  upcoming(opts?: RequestOptions): Promise<Data<'listUpcomingCharges'>> {
    return this.read('/billing/upcoming', undefined, opts);
  }
}
