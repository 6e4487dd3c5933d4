// The rules a domain order's input must follow beyond its schema: nameservers, years, WHOIS
// privacy and the registrant contact, each against the TLD's row of the price list.
import { randomBytes } from 'node:crypto';
import type { DomainStatus, TldPrice } from '../../db/schema.ts';
import type { DomainContact } from '../../providers/registrar/types.ts';
import { base62 } from '../ids.ts';
import { ApiError, type FieldError, invalid } from '../errors.ts';
import { parseHostName } from './names.ts';

export const DOMAIN_STATUSES = ['pending', 'active', 'transfer_pending', 'expired', 'cancelled'] as const satisfies readonly DomainStatus[];

/** Where a name points when the customer names no nameservers: the operator's parking servers. */
export const PARKING_NAMESERVERS = ['ns1.parking.hostcloud.example', 'ns2.parking.hostcloud.example'];
export const MIN_NAMESERVERS = 2;
export const MAX_NAMESERVERS = 13;
/** Registries do not register or renew further ahead than this. */
export const MAX_YEARS_AHEAD = 10;

/** `years` calendar years after `from` (as PostgreSQL adds an interval of years: 29 February → 28 February). */
export function addYears(from: Date, years: number): Date {
  const d = new Date(from.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + years);
  if (d.getUTCDate() !== from.getUTCDate()) d.setUTCDate(0);
  return d;
}

/** Whether an expiry lies beyond the registries' limit of MAX_YEARS_AHEAD years from `now`. */
export function beyondLimit(expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() > addYears(now, MAX_YEARS_AHEAD).getTime();
}

export function newDomainId(): string {
  return `dom_${base62(16)}`;
}

/** The billing service of a domain, named in its ledger rows: `svc_` and 12 characters. */
export function newServiceId(): string {
  return `svc_${base62(12)}`;
}

/** A request token for a registrar change that is not an operation (nameservers, lock…). */
export function changeToken(kind: string): string {
  return `${kind}-${randomBytes(12).toString('hex')}`;
}

function fail(errors: FieldError[]): never {
  throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
}

/** 2–13 distinct host names, normalised like domain names (IDN → punycode, lower case). */
export function checkNameservers(list: readonly string[], field = 'nameservers'): string[] {
  const errors: FieldError[] = [];
  const out: string[] = [];
  list.forEach((text, i) => {
    const host = parseHostName(text);
    if (!host.ok) errors.push({ field: `${field}[${i}]`, code: 'INVALID', message: host.problem });
    else if (out.includes(host.value.name)) errors.push({ field: `${field}[${i}]`, code: 'INVALID', message: `repeats ${host.value.name}; nameservers must be distinct` });
    else out.push(host.value.name);
  });
  if (errors.length) fail(errors);
  if (out.length < MIN_NAMESERVERS || out.length > MAX_NAMESERVERS) {
    throw invalid(field, `must list ${MIN_NAMESERVERS} to ${MAX_NAMESERVERS} distinct nameservers (got ${out.length})`);
  }
  return out;
}

/** `years` within the TLD's years_min..years_max. */
export function checkYears(years: number, price: TldPrice, field = 'years'): number {
  if (!Number.isInteger(years) || years < price.years_min || years > price.years_max) {
    throw invalid(field, `must be from ${price.years_min} to ${price.years_max} for ${price.tld}`);
  }
  return years;
}

/** WHOIS privacy where the TLD has it; omitted means on where it is offered (it is free). */
export function checkWhoisPrivacy(enabled: boolean | undefined, price: TldPrice, field = 'whois_privacy'): boolean {
  if (enabled === undefined) return price.supports_whois_privacy;
  if (enabled && !price.supports_whois_privacy) throw invalid(field, `${price.tld} does not support WHOIS privacy`);
  return enabled;
}

/** The registrant contact: required where the TLD's registry needs one (requires_contact). */
export function checkContact(contact: DomainContact | undefined, price: TldPrice, field = 'contact'): DomainContact | null {
  if (!contact) {
    if (price.requires_contact) {
      throw invalid(field, `is required for ${price.tld}: first_name, last_name, email, phone, address, city, postal_code and country`);
    }
    return null;
  }
  return { ...contact, country: contact.country.toUpperCase(), email: contact.email.trim() };
}
