import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

/** Public keys of the account, installed on servers created with them (`ssh_key_ids`). */
export class SshKeys extends Resource {
  list(query?: Query<'listSshKeys'>, opts?: RequestOptions): PageIterator<Item<'listSshKeys'>> {
    return this.pages('/ssh-keys', query, opts);
  }

  create(body: Body<'createSshKey'>, opts?: RequestOptions): Promise<Data<'createSshKey'>> {
    return this.write('POST', '/ssh-keys', body, opts);
  }

  /** From the account only, not from servers already made with it. */
  delete(id: number, opts?: RequestOptions): Promise<Data<'deleteSshKey'>> {
    return this.write('DELETE', `/ssh-keys/${seg(id)}`, undefined, opts);
  }
}
