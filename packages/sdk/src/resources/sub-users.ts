import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

/** People with access to the account (invited from the web panel). */
export class SubUsers extends Resource {
  list(query?: Query<'listSubUsers'>, opts?: RequestOptions): PageIterator<Item<'listSubUsers'>> {
    return this.pages('/sub-users', query, opts);
  }

  get(id: number, opts?: RequestOptions): Promise<Data<'getSubUser'>> {
    return this.read(`/sub-users/${seg(id)}`, undefined, opts);
  }

  update(id: number, body: Body<'updateSubUser'>, opts?: RequestOptions): Promise<Data<'updateSubUser'>> {
    return this.write('PATCH', `/sub-users/${seg(id)}`, body, opts);
  }

  delete(id: number, opts?: RequestOptions): Promise<Data<'deleteSubUser'>> {
    return this.write('DELETE', `/sub-users/${seg(id)}`, undefined, opts);
  }

  permissions(id: number, opts?: RequestOptions): Promise<Data<'getSubUserPermissions'>> {
    return this.read(`/sub-users/${seg(id)}/permissions`, undefined, opts);
  }

  /** Replaces the whole set. */
  setPermissions(id: number, permissions: string[], opts?: RequestOptions): Promise<Data<'replaceSubUserPermissions'>> {
    return this.write('PUT', `/sub-users/${seg(id)}/permissions`, { permissions }, opts);
  }
}
