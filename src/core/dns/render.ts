// Our records as the DNS provider takes them: rrsets (one per absolute name and type) with
// zone-file contents. Targets get their trailing dot, MX and SRV their priority, TXT its quoted
// 255-character strings, SOA the zone's serial. An rrset's TTL is the smallest of its records'
// (a provider keeps one TTL per rrset).
import type { DnsRecord } from '../../db/schema.ts';
import type { DnsRrset } from '../../providers/dns/types.ts';
import { fqdnOf } from './rules.ts';

/** The SOA's stored content: primary nameserver, mailbox, refresh, retry, expire, negative TTL — the serial is the zone's. */
export function soaTemplate(nameservers: readonly string[]): string {
  const primary = nameservers[0]!;
  const parent = primary.includes('.') ? primary.slice(primary.indexOf('.') + 1) : primary;
  return `${primary}. hostmaster.${parent}. 10800 3600 604800 3600`;
}

/** The SOA content served: the template with `serial` in its third place. */
export function soaContent(template: string, serial: number): string {
  const parts = template.split(' ');
  return [...parts.slice(0, 2), String(serial), ...parts.slice(2)].join(' ');
}

function quoteTxt(text: string): string {
  const chunks: string[] = [];
  // 255 bytes per character-string: cut by bytes, never inside a character.
  let current = '';
  for (const ch of text) {
    if (Buffer.byteLength(current + ch) > 255) {
      chunks.push(current);
      current = '';
    }
    current += ch;
  }
  chunks.push(current);
  return chunks.map((c) => `"${c.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(' ');
}

/** One record's content in zone-file form. */
export function zoneFileContent(r: Pick<DnsRecord, 'type' | 'content' | 'priority'>, serial: number): string {
  switch (r.type) {
    case 'SOA': return soaContent(r.content, serial);
    case 'CNAME': case 'NS': case 'PTR': return `${r.content}.`;
    case 'MX': return `${r.priority ?? 0} ${r.content}.`;
    case 'SRV': {
      const [weight, port, target] = r.content.split(' ');
      return `${r.priority ?? 0} ${weight} ${port} ${target}.`;
    }
    case 'TXT': return quoteTxt(r.content);
    default: return r.content;
  }
}

export const rrsetKey = (fqdn: string, type: string) => `${fqdn} ${type}`;

/** Every rrset of a zone from its records. */
export function zoneRrsets(zone: string, records: readonly DnsRecord[], serial: number): Map<string, DnsRrset> {
  const out = new Map<string, DnsRrset>();
  for (const r of records) {
    const name = fqdnOf(r.name, zone);
    const key = rrsetKey(name, r.type);
    const set = out.get(key) ?? { name, type: r.type, ttl: r.ttl, contents: [] };
    set.ttl = Math.min(set.ttl, r.ttl);
    const content = zoneFileContent(r, serial);
    if (!set.contents.includes(content)) set.contents.push(content);
    out.set(key, set);
  }
  return out;
}
