// DNS zones, records and their outbox (migration 0100). A change to a zone bumps its serial and
// clears synced_at, which locks the zone's row, and queues what the worker must push. A customer's
// record write takes that lock last and alone (writeZoneRecord: one statement, committed on its
// own, for the record, the serial and the outbox), so writers of one zone take turns only for that
// statement; what they check first is kept still by locks on the names they write
// (withRecordNameLocks). The
// pusher's claim, its reads and its outcome are at the bottom.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { DnsOutboxRow, DnsRecord, DnsZone } from '../schema.ts';

// --- settings ---------------------------------------------------------------------------------

/** Records DNS_NAMESERVERS for the zones this installation makes (each process at start). */
export async function setDnsNameservers(db: Db, nameservers: readonly string[]): Promise<void> {
  const value = JSON.stringify(nameservers);
  await sql`INSERT INTO dns_settings (name, value) VALUES ('nameservers', ${value}::jsonb)
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value WHERE dns_settings.value IS DISTINCT FROM EXCLUDED.value`.execute(db);
}

export async function readDnsNameservers(db: Db): Promise<string[] | null> {
  const row = await db.selectFrom('dns_settings').select('value').where('name', '=', 'nameservers').executeTakeFirst();
  return Array.isArray(row?.value) ? (row.value as string[]) : null;
}

// --- zones ------------------------------------------------------------------------------------

export interface ZoneWithCount extends DnsZone {
  records_count: number;
}

const withCount = sql<number>`(SELECT count(*)::int FROM dns_records r WHERE r.zone_id = dns_zones.id)`.as('records_count');

export function findZoneByName(db: Db, name: string): Promise<DnsZone | undefined> {
  return db.selectFrom('dns_zones').selectAll().where('name', '=', name).executeTakeFirst();
}

export function findAccountZone(db: Db, accountId: string, id: string): Promise<ZoneWithCount | undefined> {
  return db.selectFrom('dns_zones').selectAll().select(withCount).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export function findZone(db: Db, id: string): Promise<DnsZone | undefined> {
  return db.selectFrom('dns_zones').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listAccountZonesPage(db: Db, accountId: string, limit: number, offset: number): Promise<{ rows: ZoneWithCount[]; total: number }> {
  const q = db.selectFrom('dns_zones').where('account_id', '=', accountId);
  const [rows, count] = await Promise.all([
    q.selectAll().select(withCount).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** The new zone, or undefined when a zone of that name exists (whoever holds it). */
export function insertZone(db: Db, row: { id: string; account_id: string | null; name: string; kind: 'forward' | 'reverse'; ip_pool_id: number | null; nameservers: string[]; serial: number; created_at: Date }): Promise<DnsZone | undefined> {
  return db.insertInto('dns_zones').values({ ...row, updated_at: row.created_at })
    .onConflict((oc) => oc.column('name').doNothing())
    .returningAll().executeTakeFirst();
}

/** Bumps the serial (wrapping within 32 bits), clears synced_at and locks the row until the transaction ends. */
export function bumpZone(db: Db, id: string, accountId: string | null, at: Date): Promise<DnsZone | undefined> {
  let q = db.updateTable('dns_zones')
    .set({ serial: sql`CASE WHEN serial >= 4294967295 THEN 1 ELSE serial + 1 END`, synced_at: null, updated_at: at })
    .where('id', '=', id);
  q = accountId === null ? q.where('account_id', 'is', null) : q.where('account_id', '=', accountId);
  return q.returningAll().executeTakeFirst();
}

/**
 * Keeps other writers off these names of the zone until the transaction ends (an advisory lock
 * per name, taken in order so two renames cannot wait on each other): the CNAME and duplicate
 * rules are about the records at one name, so writers of other names need not wait.
 */
export async function lockRecordNames(trx: Db, zoneId: string, names: readonly string[]): Promise<void> {
  for (const name of [...new Set(names)].sort()) {
    await sql`SELECT pg_advisory_xact_lock(hashtext('hostcloud.dns.name'), hashtext(${`${zoneId} ${name}`}))`.execute(trx);
  }
}

/**
 * Runs `fn` on one connection of its own, outside a transaction, with `lock` to take session
 * advisory locks on names of a zone (released when `fn` ends, whatever happened): a record write's
 * checks are made under them, and its one write statement then commits on its own, so the zone's
 * row is locked for that statement only, never across a round trip to the API. Inside a
 * transaction already (the sandbox's), the locks are the transaction's.
 */
export async function withRecordNameLocks<T>(db: Db, fn: (conn: Db, lock: (zoneId: string, names: readonly string[]) => Promise<void>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db, (zoneId, names) => lockRecordNames(db, zoneId, names));
  return db.connection().execute(async (conn) => {
    const held: string[] = [];
    try {
      return await fn(conn, async (zoneId, names) => {
        for (const name of [...new Set(names)].sort()) {
          const key = `${zoneId} ${name}`;
          await sql`SELECT pg_advisory_lock(hashtext('hostcloud.dns.name'), hashtext(${key}))`.execute(conn);
          held.push(key);
        }
      });
    } finally {
      for (const key of held.reverse()) await sql`SELECT pg_advisory_unlock(hashtext('hostcloud.dns.name'), hashtext(${key}))`.execute(conn).catch(() => {});
    }
  });
}

export type RecordChange =
  | { kind: 'insert'; row: NewRecord }
  | { kind: 'update'; id: string; set: Pick<DnsRecord, 'name' | 'content' | 'ttl' | 'priority' | 'updated_at'> }
  | { kind: 'delete'; id: string };

/**
 * A customer's record change in ONE statement: the zone's serial bumped (its row locked from
 * here to the commit, and only from here), the record inserted, changed or deleted, and the
 * outbox rows for `rrsets` (absolute name and type). Undefined when the zone is not the
 * account's (or is gone) or the record is not in it. `serial` is the zone's new serial.
 */
export async function writeZoneRecord(trx: Db, z: { zoneId: string; accountId: string; at: Date }, change: RecordChange, rrsets: readonly { name: string; type: string }[]): Promise<{ record: DnsRecord; serial: number } | undefined> {
  const zone = sql`z AS (
    UPDATE dns_zones SET serial = CASE WHEN serial >= 4294967295 THEN 1 ELSE serial + 1 END, synced_at = NULL, updated_at = ${z.at}
     WHERE id = ${z.zoneId} AND account_id = ${z.accountId} RETURNING id, name, serial)`;
  let record;
  if (change.kind === 'insert') {
    const r = change.row;
    record = sql`r AS (
      INSERT INTO dns_records (id, zone_id, name, type, content, ttl, priority, managed, address, created_at, updated_at)
      SELECT ${r.id}, z.id, ${r.name}, ${r.type}, ${r.content}, ${r.ttl}, ${r.priority}, ${r.managed}, ${r.address}, ${r.created_at}, ${r.created_at} FROM z
      RETURNING *)`;
  } else if (change.kind === 'update') {
    const s = change.set;
    record = sql`r AS (
      UPDATE dns_records d SET name = ${s.name}, content = ${s.content}, ttl = ${s.ttl}, priority = ${s.priority}, updated_at = ${s.updated_at}
        FROM z WHERE d.id = ${change.id} AND d.zone_id = z.id RETURNING d.*)`;
  } else {
    record = sql`r AS (DELETE FROM dns_records d USING z WHERE d.id = ${change.id} AND d.zone_id = z.id RETURNING d.*)`;
  }
  const names = rrsets.map((r) => r.name);
  const types = rrsets.map((r) => r.type);
  const result = await sql<DnsRecord & { zone_serial: number }>`WITH ${zone}, ${record}, o AS (
      INSERT INTO dns_outbox (zone_id, zone_name, action, rr_name, rr_type, serial)
      SELECT z.id, z.name, 'rrset', x.n, x.t, z.serial FROM z, unnest(${names}::text[], ${types}::text[]) WITH ORDINALITY AS x(n, t, i) ORDER BY x.i)
    SELECT r.*, (SELECT serial FROM z) AS zone_serial FROM r`.execute(trx);
  const row = result.rows[0];
  if (!row) return undefined;
  const { zone_serial: serial, ...rest } = row;
  return { record: rest, serial };
}

export function deleteZoneRow(db: Db, id: string): Promise<DnsZone | undefined> {
  return db.deleteFrom('dns_zones').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Every zone's name and id (resync of all), or the one named. */
export function listZonesForResync(db: Db, name?: string): Promise<Pick<DnsZone, 'id' | 'name'>[]> {
  let q = db.selectFrom('dns_zones').select(['id', 'name']);
  if (name !== undefined) q = q.where('name', '=', name);
  return q.orderBy('name').execute();
}

export function findPoolZones(db: Db, poolId: number): Promise<DnsZone[]> {
  return db.selectFrom('dns_zones').selectAll().where('ip_pool_id', '=', poolId).execute();
}

/** Pools that have no reverse zone yet. */
export function listPoolsWithoutZones(db: Db): Promise<{ id: number; cidr: string }[]> {
  return db.selectFrom('ip_pools').select(['id', 'cidr'])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('dns_zones').select('id').whereRef('dns_zones.ip_pool_id', '=', 'ip_pools.id'))))
    .orderBy('id').execute();
}

/** The reverse zone serving `ptrName` (the longest zone name it ends in). */
export function findReverseZoneFor(db: Db, ptrName: string): Promise<DnsZone | undefined> {
  return db.selectFrom('dns_zones').selectAll().where('kind', '=', 'reverse')
    .where(sql<boolean>`${ptrName} = name OR ${ptrName} LIKE '%.' || name`)
    .orderBy(sql`length(name)`, 'desc').limit(1).executeTakeFirst();
}

// --- records ----------------------------------------------------------------------------------

export interface RecordFilter {
  type?: string;
  name?: string;
}

export async function listRecordsPage(db: Db, zoneId: string, f: RecordFilter, limit: number, offset: number): Promise<{ rows: DnsRecord[]; total: number }> {
  let q = db.selectFrom('dns_records').where('zone_id', '=', zoneId);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  if (f.name !== undefined) q = q.where('name', '=', f.name);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy(sql`managed DESC, type = 'SOA' DESC`).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export function listZoneRecords(db: Db, zoneId: string): Promise<DnsRecord[]> {
  return db.selectFrom('dns_records').selectAll().where('zone_id', '=', zoneId).orderBy('created_at').orderBy('id').execute();
}

/** The zone's records at one name (every type). */
export function listRecordsAt(db: Db, zoneId: string, name: string): Promise<DnsRecord[]> {
  return db.selectFrom('dns_records').selectAll().where('zone_id', '=', zoneId).where('name', '=', name).execute();
}

export async function countCustomerRecords(db: Db, zoneId: string): Promise<number> {
  const r = await db.selectFrom('dns_records').select(sql<number>`count(*)::int`.as('n')).where('zone_id', '=', zoneId).where('managed', '=', false).executeTakeFirstOrThrow();
  return r.n;
}

export function findRecord(db: Db, zoneId: string, id: string): Promise<DnsRecord | undefined> {
  return db.selectFrom('dns_records').selectAll().where('zone_id', '=', zoneId).where('id', '=', id).executeTakeFirst();
}

export type NewRecord = Omit<DnsRecord, 'updated_at'>;

export async function insertRecords(db: Db, rows: NewRecord[]): Promise<DnsRecord[]> {
  if (rows.length === 0) return [];
  return db.insertInto('dns_records').values(rows.map((r) => ({ ...r, updated_at: r.created_at }))).returningAll().execute();
}

export function updateRecordRow(db: Db, id: string, set: Pick<DnsRecord, 'name' | 'content' | 'ttl' | 'priority' | 'updated_at'>): Promise<DnsRecord | undefined> {
  return db.updateTable('dns_records').set(set).where('id', '=', id).returningAll().executeTakeFirst();
}

export function deleteRecordRow(db: Db, id: string): Promise<DnsRecord | undefined> {
  return db.deleteFrom('dns_records').where('id', '=', id).returningAll().executeTakeFirst();
}

export function findPtr(db: Db, address: string): Promise<DnsRecord | undefined> {
  return db.selectFrom('dns_records').selectAll().where('address', '=', address).executeTakeFirst();
}

// --- outbox -----------------------------------------------------------------------------------

export interface NewOutboxRow {
  zone_id: string;
  zone_name: string;
  action: 'sync' | 'rrset' | 'delete';
  rr_name?: string | null;
  rr_type?: string | null;
}

export async function queueDnsPush(db: Db, rows: NewOutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('dns_outbox').values(rows.map((r) => ({ ...r, rr_name: r.rr_name ?? null, rr_type: r.rr_type ?? null }))).execute();
}

/**
 * One zone's outbox rows, claimed for this transaction: the oldest due row picks the zone, and an
 * advisory lock on the zone's name keeps every other pusher off it (pushes of one zone happen one
 * at a time, oldest first); then every queued row of the zone is taken. Null when nothing is due
 * or free.
 */
export async function claimZonePush(trx: Db, skipZones: readonly string[]): Promise<{ zoneName: string; rows: DnsOutboxRow[] } | null> {
  for (let tries = 0; tries < 5; tries++) {
    // clock_timestamp(), not now() (this transaction's start): a change committed since then was
    // stamped due at its own statement's start, and skipping it would break the claim's promise of
    // every committed change up to the newest claimed (push.ts announces that one's serial).
    let q = trx.selectFrom('dns_outbox').select(['zone_name']).where('due_at', '<=', sql<Date>`clock_timestamp()`);
    if (skipZones.length > 0) q = q.where('zone_name', 'not in', skipZones);
    // Only the holder of a zone's advisory lock locks its rows: a pusher that locked a row here and
    // then lost the zone to another would hold that row from the winner, whose claim would skip it
    // and announce a serial the skipped change precedes.
    const first = await q.orderBy('id').limit(1).executeTakeFirst();
    if (!first) return null;
    const got = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext('hostcloud.dns'), hashtext(${first.zone_name})) AS ok`.execute(trx);
    if (!got.rows[0]!.ok) {
      skipZones = [...skipZones, first.zone_name];
      continue;
    }
    // Every queued row of the zone, due or waiting out a failed push's backoff: a new change makes
    // the zone due, and pushing it without the older ones would announce a serial they precede.
    const rows = await trx.selectFrom('dns_outbox').selectAll().where('zone_name', '=', first.zone_name)
      .orderBy('id').forUpdate().execute();
    return { zoneName: first.zone_name, rows };
  }
  return null;
}

export async function finishPush(trx: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await trx.deleteFrom('dns_outbox').where('id', 'in', ids).execute();
}

/** Marks the zone synced if its serial is still the one pushed (a later change keeps it null). */
export async function markSynced(trx: Db, zoneId: string, serial: number): Promise<void> {
  await trx.updateTable('dns_zones').set({ synced_at: sql<Date>`now()` }).where('id', '=', zoneId).where('serial', '=', serial)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('dns_outbox').select('id').whereRef('dns_outbox.zone_id', '=', 'dns_zones.id'))))
    .execute();
}

/**
 * A failed push: every row of the zone waits (doubling with the claimed rows' attempts, up to
 * maxWaitS) — not only those claimed, or a zone with many changes would be tried once per row.
 */
export async function postponePush(trx: Db, zoneName: string, ids: readonly string[], error: string, maxWaitS: number): Promise<void> {
  if (ids.length === 0) return;
  const r = await trx.selectFrom('dns_outbox').select(sql<number>`max(attempts)::int`.as('n')).where('id', 'in', ids).executeTakeFirstOrThrow();
  const attempts = (r.n ?? 0) + 1;
  const waitS = Math.min(maxWaitS, 2 ** Math.min(attempts - 1, 10));
  await trx.updateTable('dns_outbox')
    .set({ attempts, due_at: sql`now() + ${waitS}::int * interval '1 second'`, last_error: error.slice(0, 1000) })
    .where('zone_name', '=', zoneName).execute();
}

/** The outbox at scrape time: rows due now and how long the oldest due one has waited. */
export async function dnsOutboxStats(db: Db): Promise<{ due: number; oldestS: number }> {
  const r = await sql<{ due: number; oldest: number | null }>`
    SELECT count(*)::int AS due, extract(epoch FROM now() - min(created_at))::float8 AS oldest FROM dns_outbox WHERE due_at <= now()`.execute(db);
  return { due: r.rows[0]!.due, oldestS: Math.max(0, r.rows[0]!.oldest ?? 0) };
}

/** When the next outbox row falls due, in seconds from now (null: none waits). */
export async function nextDnsDueS(db: Db): Promise<number | null> {
  const r = await sql<{ s: number | null }>`SELECT extract(epoch FROM min(due_at) - now())::float8 AS s FROM dns_outbox`.execute(db);
  return r.rows[0]!.s;
}
