// The operator's address pools, per location: every compute driver's machines take their
// addresses from them (reserve-addresses.ts at create; the driver for an added address or a move).
// Rules here; storage in src/db/queries/ip-pools.ts and ip-pool-addresses.ts; the admin API
// (src/http/admin/ip-pools.ts) and `hostcloud admin ip-pools` adapt.
import { ensurePoolZones } from '../dns/reverse.ts';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { type PoolAddressRow, type PoolAddressState, listPoolAddressesPage } from '../../db/queries/ip-pool-addresses.ts';
import { deletePoolUnlessLeased, findPool, insertPoolUnlessOverlapping, listPoolsPage } from '../../db/queries/ip-pools.ts';
import { rowRefusal } from '../../db/refusals.ts';
import type { IpPool } from '../../db/schema.ts';
import { leasableCount, parseBlock } from './ip-math.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { type PoolInput, checkPool } from './pool-rules.ts';

/** A pool with its occupancy. Counts are BigInt: an IPv6 pool holds more than 2^53 addresses. */
export interface PoolView {
  pool: IpPool;
  /** Addresses that can be leased: hosts less the gateway. */
  size: bigint;
  used: number;
  free: bigint;
}

function viewOf(pool: IpPool, used: number): PoolView {
  const size = leasableCount(parseBlock(pool.cidr)!);
  return { pool, size, used, free: size - BigInt(used) };
}

async function requireLocation(db: Db, locationId: number): Promise<void> {
  if (!(await findCatalogRow(db, 'locations', locationId))) throw notFound('Location');
}

/** The pools of a location, or of every location (undefined). */
export async function listIpPools(db: Db, locationId: number | undefined, page: PageRequest): Promise<Paged<PoolView>> {
  if (locationId !== undefined) await requireLocation(db, locationId);
  const { rows, total } = await listPoolsPage(db, locationId, page.perPage, offsetOf(page));
  return { items: rows.map((r) => viewOf(r, r.used)), total, ...page };
}

export type { PoolAddressRow, PoolAddressState };

/** The addresses a pool has handed out (allocated, cooling, or rested and free), optionally of one state. */
export async function listPoolAddresses(db: Db, poolId: number, state: PoolAddressState | undefined, page: PageRequest): Promise<Paged<PoolAddressRow>> {
  if (!(await findPool(db, poolId))) throw notFound('IP pool');
  const { rows, total } = await listPoolAddressesPage(db, poolId, state, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

const overlapError = (other: string) => invalid('cidr', `overlaps the pool ${other}`);

export async function addIpPool(db: Db, locationId: number, input: PoolInput): Promise<PoolView> {
  const checked = checkPool(input);
  await requireLocation(db, locationId);
  let added: IpPool;
  try {
    // The pool and its reverse zones (core/dns/reverse.ts) commit together.
    added = await inTransaction(db, async (trx) => {
      const outcome = await insertPoolUnlessOverlapping(trx, { location_id: locationId, version: checked.version, cidr: checked.cidr, gateway: checked.gateway },
        (t, pool) => {
          setCompanionTarget('ip_pool', pool.id);
          return ensurePoolZones(t, pool, new Date());
        });
      // Inside the transaction: an admin write's audit row must not commit with a refusal.
      if ('clash' in outcome) throw overlapError(outcome.clash.cidr);
      return outcome.pool;
    });
  } catch (e) {
    // A pool written by another way at the same time (a seed, a migration): the exclusion
    // constraint refuses the second.
    const refused = rowRefusal(e, 'ip_pools')?.kind;
    if (refused === 'overlap' || refused === 'duplicate') throw overlapError('added at the same time');
    throw e;
  }
  return viewOf(added, 0);
}

/** Deletes a pool none of whose addresses is leased; returns it as it was. */
export async function deleteIpPool(db: Db, id: number): Promise<PoolView> {
  // Refusals throw inside the transaction, so an admin write's audit row never commits with them.
  return inTransaction(db, async (trx) => {
    const { pool, leased } = await deletePoolUnlessLeased(trx, id);
    if (!pool) throw notFound('IP pool');
    if (leased > 0) {
      throw new ApiError('STATE_CONFLICT', `The pool ${pool.cidr} has ${leased} leased address${leased === 1 ? '' : 'es'}; release them first`);
    }
    return viewOf(pool, 0);
  });
}

