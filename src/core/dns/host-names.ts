// Host names as customers type them (a nameserver, a record's name or target, a domain), normalised
// the way registries and DNS servers store them: the rules are described with the domain names
// that build on them (src/core/domains/names.ts). Here, in the DNS family, because both DNS and
// domains parse host names and domains is the one above (it creates zones).
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';

export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

export interface HostName {
  /** ASCII (punycode), lower case, no trailing dot: `xn--bcher-kva.de`. */
  name: string;
  /** The same name for people: `bücher.de`. */
  unicode: string;
  labels: string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

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
