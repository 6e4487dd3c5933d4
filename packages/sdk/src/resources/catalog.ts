import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type { Data, Item, Query } from '../types.js';

/** What can be bought: plans, packages, operating systems, locations, web hosting packages. */
export class Catalog extends Resource {
  plans(query?: Query<'listPlans'>, opts?: RequestOptions): PageIterator<Item<'listPlans'>> {
    return this.pages('/plans', query, opts);
  }

  plan(id: number, opts?: RequestOptions): Promise<Data<'getPlan'>> {
    return this.read(`/plans/${seg(id)}`, undefined, opts);
  }

  packages(query?: Query<'listPackages'>, opts?: RequestOptions): PageIterator<Item<'listPackages'>> {
    return this.pages('/packages', query, opts);
  }

  operatingSystems(query?: Query<'listOperatingSystems'>, opts?: RequestOptions): PageIterator<Item<'listOperatingSystems'>> {
    return this.pages('/operating-systems', query, opts);
  }

  locations(query?: Query<'listLocations'>, opts?: RequestOptions): PageIterator<Item<'listLocations'>> {
    return this.pages('/locations', query, opts);
  }

  webHostingPackages(query?: Query<'listWebHostingPackages'>, opts?: RequestOptions): PageIterator<Item<'listWebHostingPackages'>> {
    return this.pages('/web-hosting-packages', query, opts);
  }
}
