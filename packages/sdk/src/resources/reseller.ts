import { Resource } from '../resource.js';
import type { RequestOptions } from '../transport.js';
import type { Data } from '../types.js';

/** Reseller status and the discount ladder. */
export class Reseller extends Resource {
  get(opts?: RequestOptions): Promise<Data<'getReseller'>> {
    return this.read('/reseller', undefined, opts);
  }

  tiers(opts?: RequestOptions): Promise<Data<'getResellerTiers'>> {
    return this.read('/reseller/tiers', undefined, opts);
  }
}
