// The simulated platform leasing more addresses for a machine (an added address, a move to another
// location) from the core's pools, inside the caller's transaction: the rules live in the database
// (hc_lease_addresses), so the pools' locks are held for one statement and the commit rather than
// for a round trip per address.
import type { Db } from '../../../db/connection.ts';
import { leaseAddresses as leaseInDb } from '../../../db/queries/ip-pools.ts';
import { ProviderError } from '../types.ts';

/** Leases `count` addresses of one family to `vmId`: released ones first, then fresh offsets. */
export async function leaseAddresses(trx: Db, locationId: number, version: 4 | 6, vmId: string, count: number): Promise<string[]> {
  const leased = await leaseInDb(trx, locationId, version, vmId, count);
  if ('shortfall' in leased) throw new ProviderError('CAPACITY_UNAVAILABLE', leased.shortfall, false);
  return leased;
}
