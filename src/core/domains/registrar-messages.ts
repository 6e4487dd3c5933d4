// The registry's messages as the worker read them from its queue (EPP <poll>): transfers' outcomes
// and the registry's notices, for the operator (/admin/v1/registrar-messages, `hostcloud admin
// registrar messages`), newest first.
import { domainToASCII } from 'node:url';
import { type RegistrarMessageFilter, listRegistrarMessagesPage } from '../../db/queries/registrar-messages.ts';
import type { RegistrarMessage } from '../../db/schema.ts';
import { invalid } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';

export interface MessageQuery extends Omit<RegistrarMessageFilter, 'domain'> {
  /** Any spelling: IDN or punycode, any case, a trailing dot. */
  domain?: string;
}

export async function listRegistrarMessages(db: Db, q: MessageQuery, page: PageRequest): Promise<Paged<RegistrarMessage>> {
  let domain: string | undefined;
  if (q.domain !== undefined) {
    domain = domainToASCII(q.domain.trim().toLowerCase().replace(/\.$/, ''));
    if (!domain || !domain.includes('.')) throw invalid('domain', 'must be a domain name, such as example.com');
  }
  const { rows, total } = await listRegistrarMessagesPage(db, { ...q, domain }, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
