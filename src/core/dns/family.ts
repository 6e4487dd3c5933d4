// The DNS family: zones and their records, pushed to the DNS provider by the worker (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';

export const dnsFamily = {
  name: 'dns',
  area: 'dns',
  events: ['dns_zone.created', 'dns_zone.deleted'],
} as const satisfies FamilyManifest;
