// A zone's records: listed (paged, by type and name), added, changed and removed. Every write
// first bumps the zone's serial, which locks the zone's row: writes to one zone take turns, and
// the quota and the CNAME rules are checked against the records as they are. The change, the
// serial and the outbox row (the rrsets the worker must push) commit together.
import {
  type RecordFilter, bumpZone, countCustomerRecords, deleteRecordRow, findAccountZone, findRecord, insertRecords, listRecordsAt, listRecordsPage,
  queueDnsPush, updateRecordRow,
} from '../../db/queries/dns.ts';
import type { DnsRecord, DnsZone } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { RECORDS_MAX, type RecordType, checkContent, checkTtl, fqdnOf, relativeName } from './rules.ts';
import { newRecordId } from './zones.ts';

type Scope = Pick<Ctx, 'db' | 'accountId' | 'now'>;

export interface RecordInput {
  name: string;
  type: RecordType;
  content: string;
  ttl?: number;
  priority?: number | null;
}

export type RecordPatch = Partial<Pick<RecordInput, 'name' | 'content' | 'ttl' | 'priority'>>;

/** A record with the zone it is in (its fqdn, and the serial a SOA shows). */
export interface ZoneRecord {
  record: DnsRecord;
  zone: Pick<DnsZone, 'name' | 'serial'>;
}

async function zoneOf(db: Db, accountId: string, zoneId: string): Promise<DnsZone> {
  const zone = await findAccountZone(db, accountId, zoneId);
  if (!zone) throw new ApiError('RESOURCE_NOT_FOUND', `DNS zone ${zoneId} not found`);
  return zone;
}

/** Bumps and locks the zone for a write; 404 when it is not the account's. */
async function lockZone(trx: Db, s: Scope, zoneId: string): Promise<DnsZone> {
  const zone = await bumpZone(trx, zoneId, s.accountId, s.now);
  if (!zone) throw new ApiError('RESOURCE_NOT_FOUND', `DNS zone ${zoneId} not found`);
  return zone;
}

export async function listRecords(s: Pick<Ctx, 'db' | 'accountId'>, zoneId: string, filter: { type?: string; name?: string }, page: PageRequest): Promise<Paged<ZoneRecord>> {
  const zone = await zoneOf(s.db, s.accountId, zoneId);
  const f: RecordFilter = { type: filter.type, name: filter.name === undefined ? undefined : relativeName(filter.name, zone.name) };
  const { rows, total } = await listRecordsPage(s.db, zone.id, f, page.perPage, offsetOf(page));
  return { items: rows.map((record) => ({ record, zone })), total, ...page };
}

/** The CNAME rules at `name`, `others` being the records there besides the one written. */
function checkCname(type: string, name: string, others: readonly DnsRecord[]): void {
  if (type === 'CNAME' && name === '@') throw invalid('name', 'a CNAME cannot be at the zone\'s apex (the SOA and NS records are there); use A/AAAA records');
  if (type === 'CNAME' && others.length > 0) {
    throw invalid('name', `a CNAME must be the only record at its name, and ${name} has ${others.map((r) => r.type).join(', ')} records`);
  }
  if (type !== 'CNAME' && others.some((r) => r.type === 'CNAME')) throw invalid('name', `${name} has a CNAME record, which must be the only record at its name`);
}

function checkNotApexNs(type: string, name: string): void {
  if (type === 'NS' && name === '@') throw new ApiError('STATE_CONFLICT', 'The apex NS records are Hostcloud\'s (managed); NS records below the apex delegate a subdomain');
}

function checkNoDuplicate(type: string, content: string, priority: number | null, others: readonly DnsRecord[]): void {
  const same = others.find((r) => r.type === type && r.content === content && r.priority === priority);
  if (same) throw new ApiError('STATE_CONFLICT', `The same record exists already (${same.id})`);
}

const rrset = (zone: DnsZone, name: string, type: string) => ({ zone_id: zone.id, zone_name: zone.name, action: 'rrset' as const, rr_name: fqdnOf(name, zone.name), rr_type: type });
const soa = (zone: DnsZone) => rrset(zone, '@', 'SOA');

export async function createRecord(s: Scope, zoneId: string, input: RecordInput): Promise<ZoneRecord> {
  return inTransaction(s.db, async (trx) => {
    const zone = await lockZone(trx, s, zoneId);
    const name = relativeName(input.name, zone.name);
    const { content, priority } = checkContent(input.type, input.content, input.priority);
    const ttl = checkTtl(input.ttl);
    checkNotApexNs(input.type, name);
    const others = await listRecordsAt(trx, zone.id, name);
    checkCname(input.type, name, others);
    if ((await countCustomerRecords(trx, zone.id)) >= RECORDS_MAX) {
      throw new ApiError('QUOTA_EXCEEDED', `A zone holds at most ${RECORDS_MAX} records (the managed SOA and NS not counted); delete some first`);
    }
    checkNoDuplicate(input.type, content, priority, others);
    const [record] = await insertRecords(trx, [{ id: newRecordId(), zone_id: zone.id, name, type: input.type, content, ttl, priority, managed: false, address: null, created_at: s.now }]);
    await queueDnsPush(trx, [rrset(zone, name, input.type), soa(zone)]);
    return { record: record!, zone };
  });
}

async function writable(trx: Db, zone: DnsZone, recordId: string): Promise<DnsRecord> {
  const record = await findRecord(trx, zone.id, recordId);
  if (!record) throw new ApiError('RESOURCE_NOT_FOUND', `DNS record ${recordId} not found in zone ${zone.id}`);
  if (record.managed) throw new ApiError('STATE_CONFLICT', `The ${record.type} record at the apex is Hostcloud's (managed): it cannot be changed or deleted`);
  return record;
}

export async function updateRecord(s: Scope, zoneId: string, recordId: string, patch: RecordPatch): Promise<ZoneRecord> {
  return inTransaction(s.db, async (trx) => {
    const zone = await lockZone(trx, s, zoneId);
    const old = await writable(trx, zone, recordId);
    const type = old.type as RecordType;
    const name = patch.name === undefined ? old.name : relativeName(patch.name, zone.name);
    const { content, priority } = checkContent(type, patch.content ?? old.content, patch.priority === undefined ? old.priority : patch.priority);
    const ttl = patch.ttl === undefined ? old.ttl : checkTtl(patch.ttl);
    checkNotApexNs(type, name);
    const others = (await listRecordsAt(trx, zone.id, name)).filter((r) => r.id !== old.id);
    checkCname(type, name, others);
    checkNoDuplicate(type, content, priority, others);
    const record = await updateRecordRow(trx, old.id, { name, content, ttl, priority, updated_at: s.now });
    await queueDnsPush(trx, [rrset(zone, old.name, type), ...(name === old.name ? [] : [rrset(zone, name, type)]), soa(zone)]);
    return { record: record!, zone };
  });
}

export async function deleteRecord(s: Scope, zoneId: string, recordId: string): Promise<ZoneRecord> {
  return inTransaction(s.db, async (trx) => {
    const zone = await lockZone(trx, s, zoneId);
    const record = await writable(trx, zone, recordId);
    await deleteRecordRow(trx, record.id);
    await queueDnsPush(trx, [rrset(zone, record.name, record.type), soa(zone)]);
    return { record, zone };
  });
}
