// Domain resources of v2, shared by the domain route files. The domain body itself is built by the
// core (core/domains/view.ts: an answer the worker may store must be the route's very body);
// DomainSchema describes it.
import { Type } from '@sinclair/typebox';
import { type Availability } from '../../../core/domains/read.ts';
import { DOMAIN_STATUSES } from '../../../core/domains/rules.ts';
import { domainBody } from '../../../core/domains/view.ts';
import { money } from '../../../core/money.ts';
import type { DomainRow } from '../../../db/queries/domains.ts';
import type { TldPrice } from '../../../db/schema.ts';
import { MoneySchema, NullableTimestamp, StringEnum, component, ref } from '../../schemas.ts';
import { OperationSchema } from '../servers/presenters.ts';
import { NextChargeField } from '../billing/presenters.ts';

const Hostname = Type.String({ examples: ['ns1.example.net'] });

export const DomainSchema = component('Domain', Type.Object({
  id: Type.String({ examples: ['dom_3kPq9vX2mLp8RtY1'] }),
  domain: Type.String({ description: 'The name in ASCII: an IDN is shown in punycode (`bücher.de` → `xn--bcher-kva.de`).', examples: ['example-shop.com'] }),
  status: StringEnum(DOMAIN_STATUSES, {
    description: '`pending` while being registered, `transfer_pending` while a transfer in waits for the current registrar, then `active`; '
      + '`cancelled` when the registration or transfer failed (and was refunded); `expired` once past `expires_at` without renewal.',
  }),
  auto_renew: Type.Boolean({ description: 'Renewed before it expires, from the balance.' }),
  registered_at: { ...NullableTimestamp, description: 'When the name was first registered (null while pending).' },
  expires_at: { ...NullableTimestamp, description: 'When the registration runs out (null while pending).' },
  nameservers: Type.Array(Hostname, { description: 'The registered nameservers (the parking ones unless chosen).' }),
  tld: Type.String({ description: 'With its leading dot.', examples: ['.com'] }),
  service_id: Type.String({ description: 'The billing service of the domain; its charges name it.', examples: ['svc_7Hq2sLk9Xw3Z'] }),
  registrar: Type.String({ description: 'The registrar that sponsors the name.', examples: ['Hostcloud Registrar (simulated)'] }),
  transfer_lock: Type.Boolean({ description: 'While true, the name cannot be transferred away.' }),
  whois_privacy: Type.Boolean({ description: 'The registrant is hidden in WHOIS (free, where the TLD supports it).' }),
  registration_years: Type.Integer({ minimum: 1, maximum: 10, description: 'Years bought at registration or transfer.', examples: [1] }),
  billing: Type.Object({
    register: ref(MoneySchema),
    renewal: ref(MoneySchema),
  }, { description: "The TLD's current prices per year." }),
  next_charge: NextChargeField,
}, { description: 'A domain name of the account.' }));

export const DomainCreatedSchema = component('DomainCreated', Type.Intersect([
  ref(DomainSchema),
  Type.Object({ operation: ref(OperationSchema) }),
], { description: 'The new domain (`pending` or `transfer_pending`) and the operation that registers or transfers it.' }));

export const DomainAvailabilitySchema = component('DomainAvailability', Type.Object({
  domain: Type.String({ description: 'The name as checked: lower case, IDN in punycode.', examples: ['xn--bcher-kva.de'] }),
  tld: Type.String({ examples: ['.de'] }),
  available: Type.Boolean({ description: 'Whether it can be registered now.' }),
}, { description: 'Whether a domain name can be registered.' }));

export const TldPriceSchema = component('TldPrice', Type.Object({
  tld: Type.String({ examples: ['.com'] }),
  register: ref(MoneySchema),
  renewal: ref(MoneySchema),
  transfer: ref(MoneySchema),
  supports_whois_privacy: Type.Boolean(),
  years_min: Type.Integer({ examples: [1] }),
  years_max: Type.Integer({ examples: [10] }),
  requires_contact: Type.Boolean({ description: 'A registration needs the registrant `contact`.' }),
}, { description: "A TLD's prices, per year (a transfer includes one year)." }));

export const DomainNameserversSchema = component('DomainNameservers', Type.Object({
  id: Type.String({ examples: ['dom_3kPq9vX2mLp8RtY1'] }),
  domain: Type.String({ examples: ['example-shop.com'] }),
  nameservers: Type.Array(Hostname),
}, { description: "A domain's registered nameservers." }));

export const DomainAuthCodeSchema = component('DomainAuthCode', Type.Object({
  auth_code: Type.String({ description: 'The EPP code another registrar asks for to transfer the name away.', examples: ['q7Lm2Vx9Kp0aZt4R#1'] }),
}, { description: 'The EPP auth code of a domain.' }));

export const BulkResultSchema = component('BulkResult', Type.Object({
  ok_count: Type.Integer({ minimum: 0, examples: [2] }),
  fail_count: Type.Integer({ minimum: 0, examples: [1] }),
  results: Type.Array(Type.Object({
    domain: Type.String({ description: 'The name as normalised (or as sent, when it could not be read).', examples: ['example-shop.com'] }),
    ok: Type.Boolean(),
    id: Type.Optional(Type.String({ description: 'The domain, when ok.', examples: ['dom_3kPq9vX2mLp8RtY1'] })),
    operation: Type.Optional(ref(OperationSchema)),
    error: Type.Optional(Type.Object({
      code: Type.String({ description: 'An error code of the catalog, as a single request would answer.', examples: ['INSUFFICIENT_BALANCE'] }),
      message: Type.String({ examples: ['Balance 3.00 USD is less than the 11.99 USD this costs'] }),
    })),
  }), { description: 'One per item, in request order.' }),
}, { description: 'The outcome of a bulk request, item by item (each item is its own order and charge).' }));

/** Path parameter of every domain route. */
export const DomainParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Domain id (`dom_…`).', examples: ['dom_3kPq9vX2mLp8RtY1'] }) });

export function domainView(row: DomainRow) {
  return domainBody(row, row.price);
}

export function availabilityView(a: Availability) {
  return { domain: a.domain, tld: a.tld, available: a.available };
}

export function tldPriceView(p: TldPrice) {
  return {
    tld: p.tld, register: money(p.register_cents), renewal: money(p.renewal_cents), transfer: money(p.transfer_cents),
    supports_whois_privacy: p.supports_whois_privacy, years_min: p.years_min, years_max: p.years_max, requires_contact: p.requires_contact,
  };
}

export function nameserversView(row: DomainRow) {
  return { id: row.id, domain: row.name, nameservers: row.nameservers };
}
