// Customers' DNS zones: listed, made, read and deleted. A zone is made with its managed apex
// records (SOA, and NS from DNS_NAMESERVERS as recorded in the database at start) and a `sync` in
// the outbox, in the caller's transaction; the worker then pushes it (push.ts). A name is held by
// one zone at a time: another account's is 409. A domain registered or transferred in gets its
// zone in the transaction that activates it (ensureDomainZone); deleting or expiring the domain
// leaves the zone, which the customer may point elsewhere or delete.
import {
  type ZoneWithCount, deleteZoneRow, findAccountZone, findZoneByName, insertRecords, insertZone, listAccountZonesPage, queueDnsPush, readDnsNameservers,
} from '../../db/queries/dns.ts';
import type { DnsZone } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { base62 } from '../ids.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { soaTemplate } from './render.ts';
import { TTL_DEFAULT, checkZoneName } from './rules.ts';

/** DNS_NAMESERVERS' default (config.ts), for a database no process has recorded its setting in. */
export const DEFAULT_NAMESERVERS = ['ns1.hostcloud.test', 'ns2.hostcloud.test'];

export const newZoneId = () => `dnz_${base62(16)}`;
export const newRecordId = () => `dnr_${base62(16)}`;

/** A first serial in the customary YYYYMMDDnn form; each change adds one. */
export function firstSerial(now: Date): number {
  return Number(now.toISOString().slice(0, 10).replace(/-/g, '')) * 100;
}

/** The facts an event carries about a zone (its data; the presenter reads them back). */
export function zoneFacts(z: DnsZone, recordsCount: number): Record<string, unknown> {
  return { ...z, records_count: recordsCount };
}

export interface MadeZone {
  zone: DnsZone;
  recordsCount: number;
}

/** Makes a zone with its managed SOA and NS and queues its push; undefined when the name is held already. */
export async function makeZone(trx: Db, z: { accountId: string | null; name: string; kind: 'forward' | 'reverse'; poolId: number | null; now: Date }): Promise<MadeZone | undefined> {
  const nameservers = (await readDnsNameservers(trx)) ?? DEFAULT_NAMESERVERS;
  const zone = await insertZone(trx, {
    id: newZoneId(), account_id: z.accountId, name: z.name, kind: z.kind, ip_pool_id: z.poolId, nameservers, serial: firstSerial(z.now), created_at: z.now,
  });
  if (!zone) return undefined;
  const managed = { zone_id: zone.id, name: '@', ttl: TTL_DEFAULT, priority: null, managed: true, address: null, created_at: z.now };
  await insertRecords(trx, [
    { ...managed, id: newRecordId(), type: 'SOA', content: soaTemplate(nameservers) },
    ...nameservers.map((ns) => ({ ...managed, id: newRecordId(), type: 'NS', content: ns })),
  ]);
  await queueDnsPush(trx, [{ zone_id: zone.id, zone_name: zone.name, action: 'sync' }]);
  return { zone, recordsCount: 1 + nameservers.length };
}

export async function listZones(ctx: Pick<Ctx, 'db' | 'accountId'>, page: PageRequest): Promise<Paged<ZoneWithCount>> {
  const { rows, total } = await listAccountZonesPage(ctx.db, ctx.accountId, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getZone(ctx: Pick<Ctx, 'db' | 'accountId'>, id: string): Promise<ZoneWithCount> {
  const zone = await findAccountZone(ctx.db, ctx.accountId, id);
  if (!zone) throw new ApiError('RESOURCE_NOT_FOUND', `DNS zone ${id} not found`);
  return zone;
}

function held(name: string, holder: DnsZone | undefined, accountId: string): ApiError {
  return new ApiError('STATE_CONFLICT', holder?.account_id === accountId
    ? `The zone ${name} is already in your account (${holder.id})`
    : `The zone ${name} is held by another account or by the service; ask its holder to delete it first`);
}

export async function createZone(ctx: Pick<Ctx, 'db' | 'accountId' | 'now'>, input: { name: string }): Promise<ZoneWithCount> {
  const name = checkZoneName(input.name);
  return inTransaction(ctx.db, async (trx) => {
    const made = await makeZone(trx, { accountId: ctx.accountId, name, kind: 'forward', poolId: null, now: ctx.now });
    if (!made) throw held(name, await findZoneByName(trx, name), ctx.accountId);
    await recordEvent(trx, 'dns_zone.created', ctx.accountId, made.zone.id, zoneFacts(made.zone, made.recordsCount));
    return { ...made.zone, records_count: made.recordsCount };
  });
}

export async function deleteZone(ctx: Pick<Ctx, 'db' | 'accountId' | 'now'>, id: string): Promise<ZoneWithCount> {
  return inTransaction(ctx.db, async (trx) => {
    const zone = await findAccountZone(trx, ctx.accountId, id);
    if (!zone) throw new ApiError('RESOURCE_NOT_FOUND', `DNS zone ${id} not found`);
    await recordEvent(trx, 'dns_zone.deleted', ctx.accountId, zone.id, zoneFacts(zone, zone.records_count));
    await deleteZoneRow(trx, zone.id);
    await queueDnsPush(trx, [{ zone_id: zone.id, zone_name: zone.name, action: 'delete' }]);
    return zone;
  });
}

/**
 * The zone of a domain that has just become the account's (registered, or transferred in), made in
 * the transaction that activates the domain. A zone of that name already held — by the account
 * (made before) or anyone else — is left as it is.
 */
export async function ensureDomainZone(trx: Db, accountId: string, domainName: string, now: Date): Promise<void> {
  const made = await makeZone(trx, { accountId, name: domainName, kind: 'forward', poolId: null, now });
  if (made) await recordEvent(trx, 'dns_zone.created', accountId, made.zone.id, zoneFacts(made.zone, made.recordsCount));
}
