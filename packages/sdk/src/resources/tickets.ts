import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

/** Support tickets (ids are ticket numbers, as strings). */
export class Tickets extends Resource {
  list(query?: Query<'listTickets'>, opts?: RequestOptions): PageIterator<Item<'listTickets'>> {
    return this.pages('/tickets', query, opts);
  }

  /** The ticket with its whole thread. */
  get(id: string, opts?: RequestOptions): Promise<Data<'getTicket'>> {
    return this.read(`/tickets/${seg(id)}`, undefined, opts);
  }

  create(body: Body<'createTicket'>, opts?: RequestOptions): Promise<Data<'createTicket'>> {
    return this.write('POST', '/tickets', body, opts);
  }

  reply(id: string, message: string, opts?: RequestOptions): Promise<Data<'createTicketReply'>> {
    return this.write('POST', `/tickets/${seg(id)}/replies`, { message }, opts);
  }

  close(id: string, opts?: RequestOptions): Promise<Data<'closeTicket'>> {
    return this.write('POST', `/tickets/${seg(id)}/close`, undefined, opts);
  }

  departments(query?: Query<'listDepartments'>, opts?: RequestOptions): PageIterator<Item<'listDepartments'>> {
    return this.pages('/departments', query, opts);
  }
}
