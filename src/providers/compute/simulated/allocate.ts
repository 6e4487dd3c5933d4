// Leasing addresses from a location's pools. Runs inside the caller's transaction with the pools
// of that family locked, so concurrent allocations queue instead of racing for an offset; if any
// address cannot be had, the caller's rollback returns every address already taken.
import type { Db } from '../../../db/connection.ts';
import { insertLease, lockPools, reuseReleasedLease, setPoolOffset } from '../../../db/queries/sim.ts';
import type { SimIpPool } from '../../../db/schema.ts';
import { ProviderError } from '../types.ts';
import { addressAt, hostOffsets, offsetOf, parseBlock } from './ip-math.ts';

/** Leases `count` addresses of one family to `vmId`: released ones first, then fresh offsets. */
export async function leaseAddresses(trx: Db, locationId: number, version: 4 | 6, vmId: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  const pools = await lockPools(trx, locationId, version);
  const out: string[] = [];
  while (out.length < count) {
    const address = (await reuseReleasedLease(trx, pools.map((p) => p.id), vmId)) ?? (await leaseFresh(trx, pools, vmId));
    if (!address) {
      throw new ProviderError('CAPACITY_UNAVAILABLE', `No free IPv${version} address in location ${locationId}`, false);
    }
    out.push(address);
  }
  return out;
}

/** The next never-used offset of the first pool that has one. Mutates `pools` to follow its writes. */
async function leaseFresh(trx: Db, pools: SimIpPool[], vmId: string): Promise<string | undefined> {
  for (const pool of pools) {
    const block = parseBlock(pool.cidr);
    if (!block) continue;
    const { first, last } = hostOffsets(block);
    const gateway = offsetOf(block, pool.gateway);
    let offset = BigInt(pool.next_offset) < first ? first : BigInt(pool.next_offset);
    if (offset === gateway) offset += 1n;
    if (offset > last) continue;
    const address = addressAt(block, offset);
    pool.next_offset = Number(offset + 1n);
    await setPoolOffset(trx, pool.id, offset + 1n);
    await insertLease(trx, { address, pool_id: pool.id, vm_id: vmId });
    return address;
  }
  return undefined;
}
