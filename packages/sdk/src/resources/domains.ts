import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { CreateOptions, RequestOptions } from '../transport.js';
import type { Body, Data, Item, Query } from '../types.js';

/** Domain names: availability and prices, registration, transfer, renewal, nameservers, lock, privacy. */
export class Domains extends Resource {
  list(query?: Query<'listDomains'>, opts?: RequestOptions): PageIterator<Item<'listDomains'>> {
    return this.pages('/domains', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<Data<'getDomain'>> {
    return this.read(`/domains/${seg(id)}`, undefined, opts);
  }

  /** Free. IDNs are accepted and answered in punycode. */
  check(domain: string, opts?: RequestOptions): Promise<Data<'checkDomain'>> {
    return this.read('/domains/check', { domain }, opts);
  }

  /** Every TLD's prices (or one: `{tld: '.com'}`). */
  pricing(query?: Query<'listDomainPricing'>, opts?: RequestOptions): PageIterator<Item<'listDomainPricing'>> {
    return this.pages('/domains/pricing', query, opts);
  }

  /** Billable. Answers the domain `pending` and its `operation`. */
  register(body: Body<'registerDomain'>, opts?: CreateOptions): Promise<Data<'registerDomain'>> {
    return this.billable('/domains', body, opts);
  }

  /** Billable. Answers the domain `transfer_pending` and its `operation`. */
  transfer(body: Body<'transferDomain'>, opts?: CreateOptions): Promise<Data<'transferDomain'>> {
    return this.billable('/domains/transfer', body, opts);
  }

  /** Billable. */
  renew(id: string, body: Body<'renewDomain'> = {}, opts?: CreateOptions): Promise<Data<'renewDomain'>> {
    return this.billable(`/domains/${seg(id)}/renew`, body, opts);
  }

  /** Billable; each item is its own charge, the answer says which succeeded. */
  bulkRegister(body: Body<'bulkRegisterDomains'>, opts?: CreateOptions): Promise<Data<'bulkRegisterDomains'>> {
    return this.billable('/domains/bulk/register', body, opts);
  }

  bulkTransfer(body: Body<'bulkTransferDomains'>, opts?: CreateOptions): Promise<Data<'bulkTransferDomains'>> {
    return this.billable('/domains/bulk/transfer', body, opts);
  }

  bulkRenew(body: Body<'bulkRenewDomains'>, opts?: CreateOptions): Promise<Data<'bulkRenewDomains'>> {
    return this.billable('/domains/bulk/renew', body, opts);
  }

  nameservers(id: string, opts?: RequestOptions): Promise<Data<'getDomainNameservers'>> {
    return this.read(`/domains/${seg(id)}/nameservers`, undefined, opts);
  }

  setNameservers(id: string, nameservers: string[], opts?: RequestOptions): Promise<Data<'updateDomainNameservers'>> {
    return this.write('PUT', `/domains/${seg(id)}/nameservers`, { nameservers }, opts);
  }

  setLock(id: string, enabled: boolean, opts?: RequestOptions): Promise<Data<'updateDomainLock'>> {
    return this.write('PUT', `/domains/${seg(id)}/lock`, { enabled }, opts);
  }

  setWhoisPrivacy(id: string, enabled: boolean, opts?: RequestOptions): Promise<Data<'updateDomainWhoisPrivacy'>> {
    return this.write('PUT', `/domains/${seg(id)}/whois-privacy`, { enabled }, opts);
  }

  /** The EPP code (needs domains:write: it lets the domain leave). */
  authCode(id: string, opts?: RequestOptions): Promise<Data<'getDomainAuthCode'>> {
    return this.read(`/domains/${seg(id)}/auth-code`, undefined, opts);
  }

  /** Issues a new EPP code. */
  refreshAuthCode(id: string, opts?: RequestOptions): Promise<Data<'refreshDomainAuthCode'>> {
    return this.write('POST', `/domains/${seg(id)}/auth-code`, undefined, opts);
  }
}
