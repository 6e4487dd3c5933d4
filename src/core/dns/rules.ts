// What a zone's name and a record's name, type and content must be. Zone names are host names
// (IDN → punycode, as domains: ./host-names.ts) that are not a public suffix (tldts, the
// Public Suffix List's ICANN part): `com` or `co.uk` would answer for every customer under them.
// Record names are relative to their zone ('@' its apex) or absolute with a trailing dot; they
// may hold underscores (_dmarc, _sip._tcp) and a leading '*' label. Contents are checked against
// their type and stored normalised; render.ts turns them into zone-file text.
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { getPublicSuffix } from 'tldts';
import { parseHostName } from './host-names.ts';
import { invalid } from '../errors.ts';

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const TTL_MIN = 60;
export const TTL_MAX = 86_400;
export const TTL_DEFAULT = 3600;
/** Records a customer may add to one zone (the managed SOA and NS not counted). */
export const RECORDS_MAX = 500;
export const TXT_MAX = 4000;
export const CONTENT_MAX = 4000;

/** The zone name typed, normalised; 422 naming `field` for a bad name or a public suffix. */
export function checkZoneName(input: string, field = 'name'): string {
  const host = parseHostName(input);
  if (!host.ok) throw invalid(field, host.problem);
  const name = host.value.name;
  if (name.endsWith('.arpa') || name === 'arpa') throw invalid(field, 'reverse zones (in-addr.arpa, ip6.arpa) are Hostcloud\'s: set reverse DNS on the address instead');
  const suffix = getPublicSuffix(name, { allowPrivateDomains: false });
  if (suffix === name) throw invalid(field, `${name} is a public suffix (like com or co.uk): add your own name before it, such as example.${name}`);
  return name;
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * A record's name relative to `zone`: '@' for the apex, else its labels. Accepted: '@', '' (the
 * apex), relative labels ('www', 'a.b'), the zone itself or a name under it, with or without a
 * trailing dot. A name with a trailing dot outside the zone is refused.
 */
export function relativeName(input: string, zone: string, field = 'name'): string {
  let text = input.trim().toLowerCase();
  if (text === '@' || text === '') return '@';
  const absolute = text.endsWith('.');
  if (absolute) text = text.slice(0, -1);
  if (text === zone) return '@';
  if (text.endsWith(`.${zone}`)) text = text.slice(0, -(zone.length + 1));
  else if (absolute) throw invalid(field, `${text}. is outside the zone ${zone}: give a name under it, or one relative to it such as www`);
  const labels = text.split('.');
  labels.forEach((label, i) => {
    if (label === '*' && i === 0) return;
    if (!LABEL.test(label)) throw invalid(field, `"${label}" is not a valid label: 1–63 letters, digits, hyphens or underscores (a leading "*" label is a wildcard)`);
  });
  if (text.length + zone.length + 1 > 253) throw invalid(field, 'makes a name longer than 253 characters');
  return text;
}

export const fqdnOf = (name: string, zone: string) => (name === '@' ? zone : `${name}.${zone}`);

function target(text: string, field: string): string {
  const host = parseHostName(text);
  if (!host.ok) throw invalid(field, `must be a host name: ${host.problem}`);
  return host.value.name;
}

function port(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n <= 65535 ? n : null;
}

/** The content normalised for its type; 422 naming `content` (or `priority`) otherwise. */
export function checkContent(type: RecordType, input: string, priority: number | null | undefined): { content: string; priority: number | null } {
  const text = input.trim();
  const needsPriority = type === 'MX' || type === 'SRV';
  if (needsPriority && (priority === undefined || priority === null)) throw invalid('priority', `is required for ${type} records (0–65535, lower is preferred)`);
  if (!needsPriority && priority !== undefined && priority !== null) throw invalid('priority', `is only for MX and SRV records; leave it out for ${type}`);
  const p = needsPriority ? priority! : null;
  if (text === '') throw invalid('content', 'must not be empty');
  switch (type) {
    case 'A':
      if (!isIPv4(text)) throw invalid('content', 'must be an IPv4 address, such as 192.0.2.10');
      return { content: ipaddr.parse(text).toString(), priority: null };
    case 'AAAA':
      if (!isIPv6(text) || ipaddr.parse(text).kind() !== 'ipv6') throw invalid('content', 'must be an IPv6 address, such as 2001:db8::10');
      return { content: ipaddr.parse(text).toString(), priority: null };
    case 'CNAME':
    case 'NS':
    case 'MX':
      return { content: target(text, 'content'), priority: p };
    case 'SRV': {
      const parts = text.split(/\s+/);
      const [weight, portText, host] = parts;
      if (parts.length !== 3 || port(weight) === null || port(portText) === null) {
        throw invalid('content', 'must be "weight port target", such as "5 5060 sip.example.com" (the priority is its own field)');
      }
      return { content: `${port(weight)} ${port(portText)} ${target(host!, 'content')}`, priority: p };
    }
    case 'TXT':
      if (text.length > TXT_MAX) throw invalid('content', `must be at most ${TXT_MAX} characters`);
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      if (/[\u0000-\u001f\u007f]/.test(input)) throw invalid('content', 'must not contain control characters (line breaks, tabs)');
      return { content: input, priority: null };
    case 'CAA': {
      const m = /^(\d{1,3})\s+([a-z0-9]{1,15})\s+"([^"\\]*)"$/i.exec(text);
      if (!m || Number(m[1]) > 255) throw invalid('content', 'must be flags tag "value", such as 0 issue "letsencrypt.org" (flags 0–255)');
      return { content: `${Number(m[1])} ${m[2]!.toLowerCase()} "${m[3]}"`, priority: null };
    }
  }
}

/** A TTL in range; 422 naming `ttl`. */
export function checkTtl(ttl: number | undefined): number {
  if (ttl === undefined) return TTL_DEFAULT;
  if (!Number.isInteger(ttl) || ttl < TTL_MIN || ttl > TTL_MAX) throw invalid('ttl', `must be from ${TTL_MIN} to ${TTL_MAX} seconds`);
  return ttl;
}
