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
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { findTldPrices } from '../../db/queries/catalog.ts';
import type { TldPrice } from '../../db/schema.ts';
import { invalid } from '../errors.ts';
import type { Db } from '../types.ts';

export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

export interface HostName {
  /** ASCII (punycode), lower case, no trailing dot: `xn--bcher-kva.de`. */
  name: string;
  /** The same name for people: `bücher.de`. */
  unicode: string;
  labels: string[];
}

export interface DomainName extends HostName {
  /** With its leading dot, as the price list holds it: `.de`, `.co.uk`. */
  tld: string;
  /** Whatever stands left of the TLD: `example`, or `www.example` for a subdomain. */
  sld: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

// Before conversion: letters, marks and digits of any script, hyphens and the dots UTS #46 maps to
// '.' (ideographic and full-width). Anything else — spaces, '/', '%', '@', ':', symbols, emoji,
// invisible format characters — would be cut off, decoded or silently dropped by the URL parser,
// or is not allowed in a domain by IDNA 2008, so it is refused here rather than altered.
const TYPED = /^[\p{L}\p{M}\p{N}\-.\u3002\uFF0E\uFF61]+$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const NOT_AN_IP = 'an IP address, in any spelling, is not a domain name';
// The URL standard (node:url, browsers) reads a host whose last label is a number — decimal, 0x
// hex, octal with a leading 0 — as an IPv4 address, whatever the other labels: `0x7f000001`,
// `127.1` and `2130706433` are all 127.0.0.1. Full-width digits and letters count once mapped.
const NUMBER_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;

function endsInNumber(text: string): boolean {
  const labels = text.normalize('NFKC').toLowerCase().split(/[.\u3002\uFF0E\uFF61]/);
  return NUMBER_LABEL.test(labels[labels.length - 1]!);
}

/** The LDH rules for one ASCII label; null when it passes. */
function labelProblem(label: string): string | null {
  if (label.length === 0) return 'has an empty label (two dots in a row, or a dot at the start)';
  if (label.length > MAX_LABEL_LENGTH) return `has a label longer than ${MAX_LABEL_LENGTH} characters ("${label.slice(0, 20)}…")`;
  if (label.startsWith('-') || label.endsWith('-')) return `has a label that starts or ends with a hyphen ("${label}")`;
  if (!LDH_LABEL.test(label)) return `has a label with characters other than letters, digits and hyphens ("${label}")`;
  if (label.slice(2, 4) === '--') {
    if (!label.startsWith('xn--')) return `has a label with hyphens in its 3rd and 4th places ("${label}"), which only IDN labels (xn--) may have`;
    // A punycode label must decode to a name that encodes back to itself.
    if (domainToASCII(domainToUnicode(label)) !== label) return `has an invalid IDN label ("${label}")`;
  }
  return null;
}

/** A host name (a nameserver, a subdomain…): any number of labels ≥ 2, no TLD list. */
export function parseHostName(input: string): Parsed<HostName> {
  let text = input.trim();
  if (text.endsWith('.') || text.endsWith('\u3002') || text.endsWith('\uFF0E') || text.endsWith('\uFF61')) text = text.slice(0, -1);
  if (text.length === 0) return fail('must be a domain name such as example.com');
  if (!TYPED.test(text)) return fail('may contain only letters, digits, hyphens and dots, such as example.com or bücher.de');
  if (endsInNumber(text)) return fail(`has a numeric TLD (${NOT_AN_IP})`);
  const ascii = domainToASCII(text);
  if (ascii === '') return fail('is not a valid domain name (an IDN label could not be converted)');
  // Whatever the spelling, a name that converts to an IP address is refused (the check above
  // should have caught every form; this one holds even if the URL parser learns new ones).
  const labels = ascii.split('.');
  if (isIP(ascii) !== 0 || /^[0-9]+$/.test(labels[labels.length - 1]!)) return fail(`is the IP address ${ascii} (${NOT_AN_IP})`);
  for (const label of labels) {
    const problem = labelProblem(label);
    if (problem) return fail(problem);
  }
  if (ascii.length > MAX_NAME_LENGTH) return fail(`is longer than ${MAX_NAME_LENGTH} characters once converted (${ascii.length})`);
  if (labels.length < 2) return fail('must have a name and a TLD, such as example.com');
  return { ok: true, value: { name: ascii, unicode: domainToUnicode(ascii), labels } };
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
