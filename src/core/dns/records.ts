// A zone's records: listed (paged, by type and name), added, changed and removed. A write holds
// the zone's row lock only for its last statement, which commits on its own (the serial bump, the
// record and the outbox row in one statement): writers of one zone never wait on one another
// across a round trip, so many writes to one zone pass each second without queueing for
// connections. Before it, the write locks the names it touches and reads them: the CNAME and
// duplicate rules are about one name, and no other writer can change that name meanwhile. The
// quota is counted again after an add; a zone found over it then (writers of other names added
// meanwhile) has the record taken back.
import {
  type RecordChange, type RecordFilter, countCustomerRecords, findAccountZone, findRecord, listRecordsAt, listRecordsPage, withRecordNameLocks,
  writeZoneRecord,
} from '../../db/queries/dns.ts';
import type { DnsRecord, DnsZone } from '../../db/schema.ts';
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

/**
 * The record change, the serial and the outbox rows for the rrsets at `names` (and the SOA), in
 * one statement; 404 when the zone is gone meanwhile.
 */
async function commitChange(trx: Db, s: Scope, zone: DnsZone, change: RecordChange, type: string, names: readonly string[]): Promise<ZoneRecord> {
  const rrsets = [...new Set(names)].map((n) => ({ name: fqdnOf(n, zone.name), type }));
  const done = await writeZoneRecord(trx, { zoneId: zone.id, accountId: s.accountId, at: s.now }, change, [...rrsets, { name: zone.name, type: 'SOA' }]);
  if (!done) throw new ApiError('RESOURCE_NOT_FOUND', `DNS zone ${zone.id} not found`);
  return { record: done.record, zone: { name: zone.name, serial: done.serial } };
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

export async function createRecord(s: Scope, zoneId: string, input: RecordInput): Promise<ZoneRecord> {
  return withRecordNameLocks(s.db, async (db, lock) => {
    const zone = await zoneOf(db, s.accountId, zoneId);
    const name = relativeName(input.name, zone.name);
    const { content, priority } = checkContent(input.type, input.content, input.priority);
    const ttl = checkTtl(input.ttl);
    checkNotApexNs(input.type, name);
    await lock(zone.id, [name]);
    const others = await listRecordsAt(db, zone.id, name);
    checkCname(input.type, name, others);
    const overQuota = () => new ApiError('QUOTA_EXCEEDED', `A zone holds at most ${RECORDS_MAX} records (the managed SOA and NS not counted); delete some first`);
    if ((await countCustomerRecords(db, zone.id)) >= RECORDS_MAX) throw overQuota();
    checkNoDuplicate(input.type, content, priority, others);
    const row = { id: newRecordId(), zone_id: zone.id, name, type: input.type, content, ttl, priority, managed: false, address: null, created_at: s.now };
    const done = await commitChange(db, s, zone, { kind: 'insert', row }, input.type, [name]);
    // Writers of other names may have added meanwhile: over the quota after all, the record is taken back.
    if ((await countCustomerRecords(db, zone.id)) > RECORDS_MAX) {
      await commitChange(db, s, zone, { kind: 'delete', id: row.id }, input.type, [name]);
      throw overQuota();
    }
    return done;
  });
}

async function writable(trx: Db, zone: DnsZone, recordId: string): Promise<DnsRecord> {
  const record = await findRecord(trx, zone.id, recordId);
  if (!record) throw new ApiError('RESOURCE_NOT_FOUND', `DNS record ${recordId} not found in zone ${zone.id}`);
  if (record.managed) throw new ApiError('STATE_CONFLICT', `The ${record.type} record at the apex is Hostcloud's (managed): it cannot be changed or deleted`);
  return record;
}

/**
 * The record to change, read again once its name (and `also`, a new name) is locked; a record
 * renamed by another writer in between is locked under its new name.
 */
async function lockedRecord(trx: Db, lock: (zoneId: string, names: readonly string[]) => Promise<void>, zone: DnsZone, seen: DnsRecord, also?: string): Promise<DnsRecord> {
  for (;;) {
    await lock(zone.id, also === undefined ? [seen.name] : [seen.name, also]);
    const record = await writable(trx, zone, seen.id);
    if (record.name === seen.name) return record;
    seen = record;
  }
}

export async function updateRecord(s: Scope, zoneId: string, recordId: string, patch: RecordPatch): Promise<ZoneRecord> {
  return withRecordNameLocks(s.db, async (trx, lock) => {
    const zone = await zoneOf(trx, s.accountId, zoneId);
    const seen = await writable(trx, zone, recordId);
    const newName = patch.name === undefined ? undefined : relativeName(patch.name, zone.name);
    const old = await lockedRecord(trx, lock, zone, seen, newName);
    const type = old.type as RecordType;
    const name = newName ?? old.name;
    const { content, priority } = checkContent(type, patch.content ?? old.content, patch.priority === undefined ? old.priority : patch.priority);
    const ttl = patch.ttl === undefined ? old.ttl : checkTtl(patch.ttl);
    checkNotApexNs(type, name);
    const others = (await listRecordsAt(trx, zone.id, name)).filter((r) => r.id !== old.id);
    checkCname(type, name, others);
    checkNoDuplicate(type, content, priority, others);
    return commitChange(trx, s, zone, { kind: 'update', id: old.id, set: { name, content, ttl, priority, updated_at: s.now } }, type, [old.name, name]);
  });
}

export async function deleteRecord(s: Scope, zoneId: string, recordId: string): Promise<ZoneRecord> {
  return withRecordNameLocks(s.db, async (trx, lock) => {
    const zone = await zoneOf(trx, s.accountId, zoneId);
    const record = await lockedRecord(trx, lock, zone, await writable(trx, zone, recordId));
    return commitChange(trx, s, zone, { kind: 'delete', id: record.id }, record.type, [record.name]);
  });
}
