import { Resource, seg } from '../resource.js';
import type { PageIterator } from '../pages.js';
import type { RequestOptions, Transport } from '../transport.js';
import type { DnsRecord, DnsRecordCreate, DnsRecordQuery, DnsRecordUpdate, DnsZone, DnsZoneCreate, Query } from '../types.js';

/** The account's DNS zones, served by the service's nameservers. Reads need `dns:read`, changes `dns:write`. */
export class DnsZones extends Resource {
  /** Oldest first: the zones you made and those of domains registered or transferred in. */
  list(query?: Query<'listDnsZones'>, opts?: RequestOptions): PageIterator<DnsZone> {
    return this.pages('/dns/zones', query, opts);
  }

  get(id: string, opts?: RequestOptions): Promise<DnsZone> {
    return this.read(`/dns/zones/${seg(id)}`, undefined, opts);
  }

  /** A zone with its managed SOA and NS; point the domain's registration at its `nameservers`. */
  create(body: DnsZoneCreate, opts?: RequestOptions): Promise<DnsZone> {
    return this.write('POST', '/dns/zones', body, opts);
  }

  /** Deletes the zone and every record in it; answers the zone as it was. A domain's registration is not touched. */
  delete(id: string, opts?: RequestOptions): Promise<DnsZone> {
    return this.write('DELETE', `/dns/zones/${seg(id)}`, undefined, opts);
  }
}

/** A zone's records. The managed SOA and NS are listed and cannot be changed (409). */
export class DnsRecords extends Resource {
  /** The managed SOA and NS first, then the others in the order they were added; filter by `type` or `name`. */
  list(zoneId: string, query?: DnsRecordQuery, opts?: RequestOptions): PageIterator<DnsRecord> {
    return this.pages(`/dns/zones/${seg(zoneId)}/records`, query, opts);
  }

  /** Adds a record; the nameservers answer it within seconds (the zone's `synced_at` is null until then). */
  create(zoneId: string, body: DnsRecordCreate, opts?: RequestOptions): Promise<DnsRecord> {
    return this.write('POST', `/dns/zones/${seg(zoneId)}/records`, body, opts);
  }

  /** Changes what is given (`name`, `content`, `ttl`, `priority`); the type stays. */
  update(zoneId: string, recordId: string, body: DnsRecordUpdate, opts?: RequestOptions): Promise<DnsRecord> {
    return this.write('PATCH', `/dns/zones/${seg(zoneId)}/records/${seg(recordId)}`, body, opts);
  }

  /** Removes the record; answers it as it was. */
  delete(zoneId: string, recordId: string, opts?: RequestOptions): Promise<DnsRecord> {
    return this.write('DELETE', `/dns/zones/${seg(zoneId)}/records/${seg(recordId)}`, undefined, opts);
  }
}

/** DNS: `dns.zones` and `dns.records`. */
export class Dns {
  readonly zones: DnsZones;
  readonly records: DnsRecords;

  constructor(transport: Transport) {
    this.zones = new DnsZones(transport);
    this.records = new DnsRecords(transport);
  }
}
