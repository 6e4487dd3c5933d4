// The dns routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as createDnsRecord from './create-dns-record.ts';
import * as createDnsZone from './create-dns-zone.ts';
import * as deleteDnsRecord from './delete-dns-record.ts';
import * as deleteDnsZone from './delete-dns-zone.ts';
import * as getDnsZone from './get-dns-zone.ts';
import * as listDnsRecords from './list-dns-records.ts';
import * as listDnsZones from './list-dns-zones.ts';
import * as updateDnsRecord from './update-dns-record.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listDnsZones, createDnsZone, getDnsZone, deleteDnsZone, listDnsRecords, createDnsRecord, updateDnsRecord, deleteDnsRecord,
];
