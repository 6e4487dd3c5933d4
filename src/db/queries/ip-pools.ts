// The core's address pools (ip_pools, per location) and the addresses they have handed out
// (ip_addresses: one row per address ever leased, holding its machine while leased and the time of
// its last release after). Leasing itself runs in the database (hc_lease_addresses, migrations
// 0016, 0031, 0070), so a location's pools stay locked for one statement and its commit. Every
// driver's machines lease from here; the operator's listing of a pool's addresses is in
// ip-pool-addresses.ts.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { IpPool } from '../schema.ts';
import { takeTurn } from '../take-turn.ts';
import { inTransaction } from '../transaction.ts';

// --- pools -----------------------------------------------------------------------------------

export interface PoolWithUsage extends IpPool {
  /** Addresses leased to a machine now. */
  used: number;
}

export function findPool(db: Db, id: number): Promise<IpPool | undefined> {
  return db.selectFrom('ip_pools').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listPoolsPage(db: Db, locationId: number | undefined, limit: number, offset: number): Promise<{ rows: PoolWithUsage[]; total: number }> {
  let q = db.selectFrom('ip_pools');
  if (locationId !== undefined) q = q.where('location_id', '=', locationId);
  const [rows, count] = await Promise.all([
    q.selectAll('ip_pools')
      .select((eb) => eb.selectFrom('ip_addresses').whereRef('ip_addresses.pool_id', '=', 'ip_pools.id')
        .where('vm_id', 'is not', null).select((e) => e.fn.countAll<string>().as('n')).as('used'))
      .orderBy('location_id').orderBy('version').orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, used: Number(r.used ?? 0) })), total: Number(count.n) };
}

/** A pool sharing at least one address with `cidr`. */
export function findOverlappingPool(db: Db, cidr: string): Promise<IpPool | undefined> {
  return db.selectFrom('ip_pools').selectAll().where(sql<boolean>`cidr && ${cidr}::cidr`).orderBy('id').executeTakeFirst();
}

export function insertPool(db: Db, row: { location_id: number; version: 4 | 6; cidr: string; gateway: string }): Promise<IpPool> {
  return db.insertInto('ip_pools').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Adds a pool unless it overlaps one (then `clash` is that pool and nothing changes). Adds take
 * turns under a lock for their transaction: left to the exclusion constraint alone, two
 * overlapping inserts can each find the other's uncommitted row and wait on it, and PostgreSQL
 * then fails one as a deadlock — "busy" to a caller, where the answer is "overlaps". In turn, each
 * add sees every pool added before it, and the constraint stays as the last word.
 */
export function insertPoolUnlessOverlapping(
  db: Db, row: { location_id: number; version: 4 | 6; cidr: string; gateway: string }, alongside?: (trx: Db, pool: IpPool) => Promise<unknown>,
): Promise<{ pool: IpPool } | { clash: IpPool }> {
  return inTransaction(db, async (trx) => {
    await takeTurn(trx, 'ip_pools:add');
    const clash = await findOverlappingPool(trx, row.cidr);
    if (clash) return { clash };
    const pool = await insertPool(trx, row);
    // What must commit with the pool (its reverse DNS zones).
    await alongside?.(trx, pool);
    return { pool };
  });
}

/**
 * Deletes a pool unless an address of it is leased (then `leased` > 0 and nothing changes).
 * Released addresses go with it. The pool row is locked first, so no allocation slips in between.
 */
export function deletePoolUnlessLeased(db: Db, id: number): Promise<{ pool: IpPool | undefined; leased: number }> {
  return inTransaction(db, async (trx) => {
    const pool = await trx.selectFrom('ip_pools').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!pool) return { pool, leased: 0 };
    const { n } = await trx.selectFrom('ip_addresses').where('pool_id', '=', id).where('vm_id', 'is not', null)
      .select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    if (Number(n) > 0) return { pool, leased: Number(n) };
    await trx.deleteFrom('ip_addresses').where('pool_id', '=', id).execute();
    await trx.deleteFrom('ip_pools').where('id', '=', id).execute();
    return { pool, leased: 0 };
  });
}

// --- leases ----------------------------------------------------------------------------------

/** The SQLSTATE of hc_lease_addresses when a location has too few free addresses. */
export const POOL_SHORT = 'HC001';

/** What a lease could not get: the database's words ("No free IPv4 address in location 1"). */
export interface LeaseShortfall { shortfall: string }

/** The shortfall a statement that leased addresses failed with, or null for any other failure. */
export function shortfallOf(e: unknown): LeaseShortfall | null {
  const err = e as { code?: unknown; message?: unknown };
  return err?.code === POOL_SHORT ? { shortfall: String(err.message) } : null;
}

/**
 * Leases `count` addresses of one family in a location to `vmId`, in one statement
 * (hc_lease_addresses): rested released ones first, then fresh offsets. The location's pools of
 * that family stay locked until the transaction ends. A shortfall aborts `trx`.
 */
export async function leaseAddresses(trx: Db, locationId: number, version: 4 | 6, vmId: string, count: number): Promise<string[] | LeaseShortfall> {
  if (count <= 0) return [];
  try {
    const r = await sql<{ a: string[] }>`SELECT hc_lease_addresses(${locationId}::int, ${version}::int, ${vmId}::text, ${count}::int) AS a`.execute(trx);
    return r.rows[0]!.a;
  } catch (e) {
    const short = shortfallOf(e);
    if (short) return short;
    throw e;
  }
}

export interface VmLease {
  address: string;
  version: 4 | 6;
  cidr: string;
  gateway: string;
}

/** The addresses a machine holds, oldest lease first. */
export function listVmLeases(db: Db, vmId: string): Promise<VmLease[]> {
  return db.selectFrom('ip_addresses').innerJoin('ip_pools', 'ip_pools.id', 'ip_addresses.pool_id')
    .select(['ip_addresses.address', 'ip_pools.version', 'ip_pools.cidr', 'ip_pools.gateway'])
    .where('ip_addresses.vm_id', '=', vmId).orderBy('ip_addresses.leased_at').orderBy('ip_addresses.address').execute();
}

/** Gives one address of a machine back to its pool; false when the machine did not hold it. */
export async function releaseLease(db: Db, vmId: string, address: string): Promise<boolean> {
  const r = await db.updateTable('ip_addresses').set({ vm_id: null, leased_at: null, released_at: sql<Date>`now()` })
    .where('vm_id', '=', vmId).where('address', '=', address).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function releaseAllLeases(db: Db, vmId: string): Promise<void> {
  await db.updateTable('ip_addresses').set({ vm_id: null, leased_at: null, released_at: sql<Date>`now()` }).where('vm_id', '=', vmId).execute();
}

// --- cool-down -------------------------------------------------------------------------------

/** Records the address cool-down this installation runs with (IP_COOLDOWN_S), read by hc_lease_addresses. */
export async function setIpCooldown(db: Db, seconds: number): Promise<void> {
  await sql`INSERT INTO ip_settings (name, value) VALUES ('cooldown_s', ${JSON.stringify(seconds)}::jsonb)
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value WHERE ip_settings.value IS DISTINCT FROM EXCLUDED.value`.execute(db);
}
