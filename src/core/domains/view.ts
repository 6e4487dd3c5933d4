// The domain resource as v2 shows it. Built in the core, not the HTTP layer, because an answer
// may be stored for an Idempotency-Key by the worker (a renewal's safety net, renew.ts), and must
// then be the very body the route would have sent. The route's schema (DomainSchema) describes it.
import type { Domain, TldPrice } from '../../db/schema.ts';
import { money } from '../money.ts';
import { timestamp } from '../time.ts';

export function domainBody(d: Domain, price: Pick<TldPrice, 'register_cents' | 'renewal_cents'>) {
  return {
    id: d.id,
    domain: d.name,
    status: d.status,
    auto_renew: d.auto_renew,
    registered_at: timestamp(d.registered_at),
    expires_at: timestamp(d.expires_at),
    nameservers: d.nameservers,
    tld: d.tld,
    service_id: d.service_id,
    registrar: d.registrar,
    transfer_lock: d.transfer_lock,
    whois_privacy: d.whois_privacy,
    registration_years: d.registration_years,
    billing: { register: money(price.register_cents), renewal: money(price.renewal_cents) },
  };
}

export type DomainBody = ReturnType<typeof domainBody>;
