// Domain and host names as customers type them, normalised the way registries store them. The
// conversion (IDN → punycode, case, width and other UTS #46 mappings) is node:url's domainToASCII;
// the rules on the result are the registries' LDH rules (RFC 1035, RFC 5891):
//   - lower case, one trailing dot dropped, surrounding spaces ignored;
//   - labels of 1–63 letters, digits and hyphens, no hyphen first or last, and no hyphens in the
//     3rd and 4th places except a valid `xn--` (IDN) label; the whole name at most 253 characters;
//   - the TLD is not numeric (so no spelling of an IP address passes: see endsInNumber) and, when a
//     TLD list is given, is on it (the longest listed suffix
//     wins, so `.co.uk` beats `.uk` when both are sold).
// parseDomainName is pure (the TLD list is a parameter); resolveDomainName is the core's wrapper
// that reads the list from the price catalog and fails with 422 VALIDATION_FAILED naming the field.
import { findTldPrices } from '../../db/queries/catalog.ts';
import type { TldPrice } from '../../db/schema.ts';
import { invalid } from '../errors.ts';
import type { Db } from '../types.ts';

import { type HostName, type Parsed, fail, parseHostName } from '../dns/host-names.ts';

export { MAX_LABEL_LENGTH, MAX_NAME_LENGTH, type HostName, type Parsed, parseHostName } from '../dns/host-names.ts';

export interface DomainName extends HostName {
  /** With its leading dot, as the price list holds it: `.de`, `.co.uk`. */
  tld: string;
  /** Whatever stands left of the TLD: `example`, or `www.example` for a subdomain. */
  sld: string;
}

/** Every suffix that could be the TLD of `labels`, longest first: ['.co.uk', '.uk'] for a.co.uk. */
export function tldCandidates(labels: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < labels.length; i++) out.push(`.${labels.slice(i).join('.')}`);
  return out;
}

export interface DomainNameOptions {
  /** The TLDs sold (with their dot); null accepts any syntactically valid TLD. */
  tlds: ReadonlySet<string> | null;
  /** false (the default): only a name directly under its TLD, as registries register (example.com, not www.example.com). */
  allowSubdomains?: boolean;
}

/** A domain name under a known TLD; pure. */
export function parseDomainName(input: string, opts: DomainNameOptions): Parsed<DomainName> {
  const host = parseHostName(input);
  if (!host.ok) return host;
  const { labels, name } = host.value;
  if (opts.tlds && opts.tlds.has(`.${name}`)) return fail(`is a TLD itself; add a name before it, such as example.${name}`);
  const tld = opts.tlds ? tldCandidates(labels).find((t) => opts.tlds!.has(t)) : `.${labels[labels.length - 1]}`;
  if (!tld) return fail(`.${labels[labels.length - 1]} is not a TLD offered here (see GET /domains/pricing)`);
  const sld = name.slice(0, name.length - tld.length);
  if (!opts.allowSubdomains && sld.includes('.')) {
    return fail(`must be a name directly under its TLD, such as ${sld.split('.').pop()}${tld} (not a subdomain)`);
  }
  return { ok: true, value: { ...host.value, tld, sld } };
}

/**
 * The name normalised, with the price-list row of its TLD; 422 VALIDATION_FAILED naming `field`
 * for anything invalid or a TLD not on the list. The price list is read for this name's possible
 * TLDs only (one query).
 */
export async function resolveDomainName(
  db: Db, input: string, field = 'domain', opts: { allowSubdomains?: boolean } = {},
): Promise<{ domain: DomainName; price: TldPrice }> {
  const host = hostNameOf(input, field);
  return domainNameAt(host, await findTldPrices(db, tldsToPrice(host)), field, opts);
}

/** The host name typed, normalised; 422 naming `field` when it is none. */
export function hostNameOf(input: string, field = 'domain'): HostName {
  const host = parseHostName(input);
  if (!host.ok) throw invalid(field, host.problem);
  return host.value;
}

/** The price-list rows resolveDomainName reads for `host`: its possible TLDs (and itself, to refuse a bare TLD). */
export function tldsToPrice(host: HostName): string[] {
  return [`.${host.name}`, ...tldCandidates(host.labels)];
}

/** resolveDomainName on rows already read (tldsToPrice's). */
export function domainNameAt(
  host: HostName, prices: readonly TldPrice[], field = 'domain', opts: { allowSubdomains?: boolean } = {},
): { domain: DomainName; price: TldPrice } {
  const parsed = parseDomainName(host.name, { tlds: new Set(prices.map((p) => p.tld)), allowSubdomains: opts.allowSubdomains });
  if (!parsed.ok) throw invalid(field, parsed.problem);
  return { domain: parsed.value, price: prices.find((p) => p.tld === parsed.value.tld)! };
}
