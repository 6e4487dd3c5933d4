// Addresses belong to the core: a new machine's addresses (and the platform's record of it) are
// taken inside the create's own write, from the location's pools, under their locks — so
// concurrent creates, in any process, never get one address twice, and a location whose pool is
// short answers 422 CAPACITY_UNAVAILABLE before anything is charged. The worker's create then asks
// the platform with the same request token and finds the machine with these addresses.
import { randomBytes } from 'node:crypto';
import { type MachineReservation, reserveMachine } from '../../db/queries/machine-reservation.ts';
import { isPoolShort } from '../../db/refusals.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../types.ts';

export type { MachineReservation };

/** The platform's id of a new machine (the simulated platform's and LXD instance names' form). */
export const newMachineId = () => `vm-${randomBytes(8).toString('hex')}`;

export function noAddresses(locationId: number, noun = 'server'): ApiError {
  return new ApiError('CAPACITY_UNAVAILABLE', `Location ${locationId} has no free address for a new ${noun} right now; try another location or later`);
}

/** Takes the machine's addresses in `trx`; CAPACITY_UNAVAILABLE (naming `noun`) when the location's pools are short. */
export async function reserveAddresses(trx: Db, r: MachineReservation, noun = 'server'): Promise<void> {
  try {
    await reserveMachine(trx, r);
  } catch (e) {
    if (isPoolShort(e)) throw noAddresses(r.locationId, noun);
    throw e;
  }
}
