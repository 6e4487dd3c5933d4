// A new machine's record and addresses, taken inside a create's own write (hc_reserve_machine,
// migration 0031): in the caller's transaction, or as a part of the one-statement create.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { SimFirewallRuleValue } from '../schema.ts';

export interface MachineReservation {
  /** The machine's id on the platform (its provider ref once provisioned). */
  id: string;
  /** The create operation's id: the worker's create asks the platform with it and finds this record. */
  token: string;
  locationId: number;
  hostname: string;
  cpuCores: number;
  ramMb: number;
  storageGb: number;
  osSlug: string | null;
  sshKeys: string[];
  node: string | null;
  /** Addresses of each family; the first of each is the primary (IPv6 only when primaryV6). */
  v4: number;
  v6: number;
  primaryV6: boolean;
  /** The rules the machine's firewall starts with (db/default-firewall.ts). */
  firewall: SimFirewallRuleValue[];
}

/** The call, as a statement to run or to embed (SELECT id FROM …). */
export function reserveMachineStatement(r: MachineReservation) {
  return sql<{ id: string }>`SELECT id FROM hc_reserve_machine(${r.id}, ${r.token}, ${r.locationId}::int, ${r.hostname}, ${r.cpuCores}::int, ${r.ramMb}::int,
    ${r.storageGb}::int, ${r.osSlug}, ${r.sshKeys}::text[], ${r.node}, ${JSON.stringify(r.firewall)}::jsonb,
    ${r.v4}::int, ${r.v6}::int, ${r.primaryV6}::boolean)`;
}

/** Reserves in `trx`; a short pool raises POOL_SHORT (ip-pools.ts; the caller's transaction is then void). */
export async function reserveMachine(trx: Db, r: MachineReservation): Promise<void> {
  await reserveMachineStatement(r).execute(trx);
}

/**
 * The record a create reserved (request token `token`) released with its addresses, in one
 * statement — only while no platform built it (still `provisioning`): for an operation that no
 * worker of this installation could run, whose driver-specific clean-up cannot run either.
 */
export async function releaseUnbuiltMachine(db: Db, token: string): Promise<void> {
  await sql`
    WITH vm AS (
      UPDATE sim_vms SET destroyed_at = now(), power = 'stopped'
      WHERE request_token = ${token} AND power = 'provisioning' AND destroyed_at IS NULL
      RETURNING id
    )
    UPDATE ip_addresses SET vm_id = NULL, leased_at = NULL, released_at = now() WHERE vm_id IN (SELECT id FROM vm)`.execute(db);
}
