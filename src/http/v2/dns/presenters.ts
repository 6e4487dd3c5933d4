// DNS zones and records as v2 shows them.
import { Type } from '@sinclair/typebox';
import type { ZoneRecord } from '../../../core/dns/records.ts';
import { soaContent } from '../../../core/dns/render.ts';
import { RECORD_TYPES, TTL_DEFAULT, TTL_MAX, TTL_MIN, fqdnOf } from '../../../core/dns/rules.ts';
import { ts } from '../../../core/time.ts';
import type { DnsZone } from '../../../db/schema.ts';
import { StringEnum, Timestamp, component } from '../../schemas.ts';

export const ZONE_ID = 'dnz_4Fq8sLk2Xw9Zp3Nb';
export const RECORD_ID = 'dnr_7Kd2mQp9Rt4Vx1Zs';

const ZoneId = Type.String({ maxLength: 64, description: 'The zone\'s id (`dnz_…`).', examples: [ZONE_ID] });
export const ZoneParams = Type.Object({ id: ZoneId });
export const RecordParams = Type.Object({
  id: ZoneId,
  record_id: Type.String({ maxLength: 64, description: 'The record\'s id (`dnr_…`).', examples: [RECORD_ID] }),
});

export const DnsZoneSchema = component('DnsZone', Type.Object({
  id: Type.String({ examples: [ZONE_ID] }),
  name: Type.String({ description: 'The zone\'s name: lower case, IDNs as punycode, no trailing dot.', examples: ['example.com'] }),
  nameservers: Type.Array(Type.String({ examples: ['ns1.hostcloud.test'] }), {
    description: 'The nameservers that serve it (its apex NS records): point the domain\'s registration at these.', examples: [['ns1.hostcloud.test', 'ns2.hostcloud.test']],
  }),
  serial: Type.Integer({ description: 'The SOA serial: one more with every change.', examples: [2026112905] }),
  synced_at: Type.Union([Timestamp, Type.Null()], { description: 'When the nameservers last took every change; null while changes wait to be served (they are, within seconds, or once the DNS service is back).' }),
  records_count: Type.Integer({ description: 'Records in the zone, the managed SOA and NS included.', examples: [7] }),
  created_at: Timestamp,
}, { description: 'A DNS zone served by the service\'s nameservers.' }));

export interface ZoneFacts extends DnsZone {
  records_count: number;
}

export function zoneView(z: ZoneFacts) {
  return {
    id: z.id, name: z.name, nameservers: z.nameservers, serial: Number(z.serial), synced_at: z.synced_at ? ts(z.synced_at) : null,
    records_count: z.records_count, created_at: ts(z.created_at),
  };
}

export const RecordType = StringEnum(RECORD_TYPES, { description: 'The record type.' });
export const RecordTtl = Type.Integer({ minimum: TTL_MIN, maximum: TTL_MAX, description: `Seconds resolvers may cache it: ${TTL_MIN}–${TTL_MAX}; default ${TTL_DEFAULT}.`, examples: [3600] });
export const RecordName = Type.String({
  maxLength: 253,
  description: '`@` for the zone\'s apex, or a name relative to the zone (`www`, `_dmarc`, `*.dev`); a name under the zone spelled out in full '
    + '(`www.example.com`, `www.example.com.`) is taken too, and one with a trailing dot outside the zone is 422.',
  examples: ['www'],
});
export const RecordContent = Type.String({
  minLength: 1, maxLength: 4000,
  description: 'By type: A an IPv4 address; AAAA an IPv6 address; CNAME, NS and MX a host name (the target); SRV `weight port target`; '
    + 'TXT the text (no quotes needed, split into 255-byte strings when served); CAA `flags tag "value"`.',
  examples: ['192.0.2.10'],
});
export const RecordPriority = Type.Union([Type.Integer({ minimum: 0, maximum: 65535 }), Type.Null()], {
  description: 'MX and SRV only, and required for them (lower is preferred); null for the others.', examples: [10],
});

export const DnsRecordSchema = component('DnsRecord', Type.Object({
  id: Type.String({ examples: [RECORD_ID] }),
  name: Type.String({ description: '`@` (the apex) or the name relative to the zone.', examples: ['www'] }),
  fqdn: Type.String({ description: 'The full name, without the trailing dot.', examples: ['www.example.com'] }),
  type: StringEnum(['SOA', ...RECORD_TYPES] as const, { description: 'The type; SOA only for the managed apex record.' }),
  content: Type.String({ examples: ['192.0.2.10'] }),
  ttl: Type.Integer({ examples: [3600] }),
  priority: Type.Union([Type.Integer(), Type.Null()], { description: 'MX and SRV; null for the others.', examples: [null] }),
  managed: Type.Boolean({ description: 'true: the apex SOA and NS, which the service keeps (changing or deleting them is 409).' }),
  created_at: Timestamp,
}, { description: 'A record of a DNS zone.' }));

export function recordView({ record: r, zone }: ZoneRecord) {
  return {
    id: r.id, name: r.name, fqdn: fqdnOf(r.name, zone.name), type: r.type as 'SOA' | (typeof RECORD_TYPES)[number],
    content: r.type === 'SOA' ? soaContent(r.content, Number(zone.serial)) : r.content, ttl: r.ttl, priority: r.priority, managed: r.managed,
    created_at: ts(r.created_at),
  };
}
