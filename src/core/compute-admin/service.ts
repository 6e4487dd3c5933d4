// The operator's controls of the simulated compute provider: its fault switch and the address
// pools it leases from. Rules here; storage in src/db/queries/sim.ts; the admin API and CLI adapt.
import { pgCode } from '../../db/connection.ts';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { deletePoolUnlessLeased, findFault, findOverlappingPool, insertPool, listPoolsPage, saveFault } from '../../db/queries/sim.ts';
import type { SimFault, SimFaultMode, SimIpPool } from '../../db/schema.ts';
import { leasableCount, parseBlock } from '../../providers/compute/simulated/ip-math.ts';
import { FAULT_MODES } from '../../providers/compute/simulated/fault.ts';
import { COMPUTE_CALLS } from '../../providers/compute/types.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type PoolInput, checkPool } from './pool-rules.ts';

const OFF: SimFault = { mode: 'none', remaining: null, calls: [] };

/** The switch as it acts now: a spent one (remaining 0) is off. */
export async function getFaultSwitch(db: Db): Promise<SimFault> {
  const fault = await findFault(db);
  return fault.mode === 'none' || fault.remaining === 0 ? OFF : fault;
}

export interface FaultInput {
  mode: string;
  /** How many calls fail; null or absent = until cleared. */
  remaining?: number | null;
  /** Which calls fail; absent or empty = every call. */
  calls?: string[];
}

export async function setFaultSwitch(db: Db, input: FaultInput): Promise<SimFault> {
  if (!(FAULT_MODES as readonly string[]).includes(input.mode)) throw invalid('mode', `must be one of ${FAULT_MODES.join(', ')}`);
  const mode = input.mode as SimFaultMode;
  if (mode === 'none') return saveFault(db, OFF);
  const remaining = input.remaining ?? null;
  if (remaining !== null && (!Number.isInteger(remaining) || remaining < 1 || remaining > 1_000_000)) {
    throw invalid('remaining', 'must be a whole number from 1 to 1000000, or null for "until cleared"');
  }
  const calls = [...new Set(input.calls ?? [])];
  const unknown = calls.find((c) => !(COMPUTE_CALLS as readonly string[]).includes(c));
  if (unknown !== undefined) throw invalid('calls', `"${unknown}" is not a provider call; calls are ${COMPUTE_CALLS.join(', ')}`);
  return saveFault(db, { mode, remaining, calls });
}

/** A pool with its occupancy. Counts are BigInt: an IPv6 pool holds more than 2^53 addresses. */
export interface PoolView {
  pool: SimIpPool;
  /** Addresses that can be leased: hosts less the gateway. */
  size: bigint;
  used: number;
  free: bigint;
}

function viewOf(pool: SimIpPool, used: number): PoolView {
  const size = leasableCount(parseBlock(pool.cidr)!);
  return { pool, size, used, free: size - BigInt(used) };
}

async function requireLocation(db: Db, locationId: number): Promise<void> {
  if (!(await findCatalogRow(db, 'locations', locationId))) throw notFound('Location');
}

export async function listIpPools(db: Db, locationId: number, page: PageRequest): Promise<Paged<PoolView>> {
  await requireLocation(db, locationId);
  const { rows, total } = await listPoolsPage(db, locationId, page.perPage, offsetOf(page));
  return { items: rows.map((r) => viewOf(r, r.used)), total, ...page };
}

const overlapError = (other: string) => invalid('cidr', `overlaps the pool ${other}`);

export async function addIpPool(db: Db, locationId: number, input: PoolInput): Promise<PoolView> {
  const checked = checkPool(input);
  await requireLocation(db, locationId);
  const clash = await findOverlappingPool(db, checked.cidr);
  if (clash) throw overlapError(clash.cidr);
  try {
    return viewOf(await insertPool(db, { location_id: locationId, version: checked.version, cidr: checked.cidr, gateway: checked.gateway }), 0);
  } catch (e) {
    // Two overlapping pools added at once: the exclusion constraint refuses the second.
    if (pgCode(e) === '23P01' || pgCode(e) === '23505') throw overlapError('added at the same time');
    throw e;
  }
}

/** Deletes a pool none of whose addresses is leased; returns it as it was. */
export async function deleteIpPool(db: Db, id: number): Promise<PoolView> {
  const { pool, leased } = await deletePoolUnlessLeased(db, id);
  if (!pool) throw notFound('IP pool');
  if (leased > 0) {
    throw new ApiError('STATE_CONFLICT', `The pool ${pool.cidr} has ${leased} leased address${leased === 1 ? '' : 'es'}; release them first`);
  }
  return viewOf(pool, 0);
}

