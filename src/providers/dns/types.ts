// The DNS provider: where zones are served from. Hostcloud's database holds every zone and record;
// the worker pushes changes here (src/jobs/dns-pusher.ts). Every call sets state rather than
// applying a delta, so any call may be repeated.
import { ProviderError } from '../errors.ts';

/** One rrset as the provider takes it: an absolute name with its trailing dot, and zone-file contents. */
export interface DnsRrset {
  name: string;
  type: string;
  ttl: number;
  /** Empty: the rrset is removed. */
  contents: string[];
}

export const DNS_CALLS = ['putZone', 'patchZone', 'deleteZone'] as const;

export interface DnsProvider {
  /** DNS_DRIVER: `simulated`, `powerdns`, `off`. */
  readonly name: string;
  /** Makes the zone hold exactly these rrsets (created if missing; any other rrset removed). */
  putZone(zone: string, rrsets: DnsRrset[]): Promise<void>;
  /** Replaces (or, empty, removes) these rrsets of an existing zone; DnsZoneMissing when the provider has no such zone. */
  patchZone(zone: string, rrsets: DnsRrset[]): Promise<void>;
  /** Removes the zone; a zone already gone is no error. */
  deleteZone(zone: string): Promise<void>;
}

/** The provider has no such zone (lost its data, or never got it): the pusher puts the whole zone instead. */
export class DnsZoneMissing extends ProviderError {
  constructor(zone: string) {
    super('UPSTREAM_ERROR', `The DNS provider has no zone ${zone}`, true);
    this.name = 'DnsZoneMissing';
  }
}
