// The simulated compute provider's world (the sim_* tables): its machines, firewall rules,
// snapshots and the record of finished requests that makes retried calls harmless. A real driver
// keeps all of this upstream. Its machines' addresses come from the core's pools (ip-pools.ts);
// the fault switches of every simulated provider are in sim-faults.ts.
import { type Selectable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { DB, PowerState, SimFaultMode, SimFirewallRuleValue, SimVm } from '../schema.ts';
import { type LeaseShortfall, type VmLease, listVmLeases, shortfallOf } from './ip-pools.ts';
import { faultConsumption } from './sim-faults.ts';

export type SimSnapshot = Selectable<DB['sim_snapshots']>;

// --- machines --------------------------------------------------------------------------------

/** A machine as a create records it: its ssh keys and host given where known. */
export type NewSimVm = Pick<SimVm, 'id' | 'request_token' | 'location_id' | 'hostname' | 'power' | 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'os_slug'>
  & Partial<Pick<SimVm, 'ssh_keys' | 'node'>>;

/** What a create needs of its machine. */
export type CreatedVm = Pick<SimVm, 'id' | 'power' | 'ipv4' | 'ipv6' | 'destroyed_at'>;

/**
 * A create request in one statement (sim_create_vm, migration 0018): the compute fault switch is
 * consulted for `create` (a mode it answers fails the request, which then makes nothing), then the
 * machine of the token is made — the row with its firewall and its addresses (`v4` and `v6` of
 * each family; the first of each is the primary, IPv6 only when `primaryV6`) — or, for a token
 * already seen, the existing one answered untouched. The location's address pools are locked for
 * this statement only. With `onlyNodesWithoutEndpoint` (the simulated platform's own creates), a
 * machine placed on a node with an endpoint (an LXD server) is refused in the same statement
 * (`lxdNode`): nothing is made or changed.
 */
export async function createVm(
  db: Db, row: NewSimVm, firewall: NewFirewallRule[], addresses: { v4: number; v6: number; primaryV6: boolean }, onlyNodesWithoutEndpoint = false,
): Promise<{ fault: SimFaultMode; vm?: undefined } | { fault: null; vm: CreatedVm } | LeaseShortfall | { lxdNode: string }> {
  const endpoint = onlyNodesWithoutEndpoint && row.node ? sql`(SELECT endpoint FROM nodes WHERE name = ${row.node})` : sql`NULL::text`;
  try {
    const r = await sql<CreatedVm & { fault: SimFaultMode | null; endpoint: string | null }>`
      WITH f AS (${faultConsumption('compute', 'create')})
      SELECT c.fault, c.endpoint, v.id, v.power, v.ipv4, v.ipv6, v.destroyed_at
      FROM (SELECT (SELECT mode FROM f) AS fault, ${endpoint} AS endpoint) c
      LEFT JOIN LATERAL sim_create_vm(coalesce(c.fault, CASE WHEN c.endpoint IS NOT NULL THEN 'another platform' END), ${row.id}, ${row.request_token},
        ${row.location_id}::int, ${row.hostname}, ${row.cpu_cores}::int,
        ${row.ram_mb}::int, ${row.storage_gb}::int, ${row.os_slug}, ${row.ssh_keys ?? []}::text[], ${row.node ?? null}, ${JSON.stringify(firewall)}::jsonb,
        ${addresses.v4}::int, ${addresses.v6}::int, ${addresses.primaryV6}::boolean) v ON true`.execute(db);
    const { fault, endpoint: lxd, ...vm } = r.rows[0]!;
    if (lxd !== null) return { lxdNode: row.node! };
    return fault === null ? { fault, vm } : { fault };
  } catch (e) {
    const short = shortfallOf(e);
    if (short) return short;
    throw e;
  }
}

/** A machine and the endpoint of its node (null: no node, or a node without one), which says which driver serves it. */
export type SimVmOnNode = SimVm & { node_endpoint: string | null };

export function findVm(db: Db, id: string): Promise<SimVmOnNode | undefined> {
  return db.selectFrom('sim_vms').leftJoin('nodes', 'nodes.name', 'sim_vms.node')
    .selectAll('sim_vms').select('nodes.endpoint as node_endpoint').where('sim_vms.id', '=', id).executeTakeFirst();
}

export function findVmByToken(db: Db, token: string): Promise<SimVm | undefined> {
  return db.selectFrom('sim_vms').selectAll().where('request_token', '=', token).executeTakeFirst();
}

export type SimVmPatch = Partial<Pick<SimVm, 'power' | 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'os_slug' | 'ipv4' | 'ipv6' | 'node' | 'location_id'>>;

export async function updateVm(db: Db, id: string, patch: SimVmPatch): Promise<void> {
  await db.updateTable('sim_vms').set(patch).where('id', '=', id).execute();
}

/**
 * Moves the machine's power from `advance.from` to `advance.to` (if it is still there; a retried
 * create must not undo a later stop) and lists its leases, in one round trip. Its commit does not
 * wait for the WAL flush (as skipCommitFlush): the operation's completion flushes it.
 */
export async function advanceVmPowerAndListLeases(db: Db, id: string, advance: { from: PowerState; to: PowerState } | null): Promise<VmLease[]> {
  if (!advance) return listVmLeases(db, id);
  const r = await sql<VmLease>`
    WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true)),
         advanced AS (UPDATE sim_vms SET power = ${advance.to} WHERE id = ${id} AND power = ${advance.from})
    SELECT l.address, p.version, p.cidr, p.gateway
    FROM unflushed, ip_addresses l JOIN ip_pools p ON p.id = l.pool_id
    WHERE l.vm_id = ${id} ORDER BY l.leased_at, l.address
  `.execute(db);
  return r.rows;
}

export async function markVmDestroyed(db: Db, id: string): Promise<void> {
  await db.updateTable('sim_vms').set({ destroyed_at: new Date(), power: 'stopped' }).where('id', '=', id).where('destroyed_at', 'is', null).execute();
}

// --- firewall, snapshots ---------------------------------------------------------------------

export type NewFirewallRule = SimFirewallRuleValue;

/** A machine's firewall by position: its own column, or for a machine made before 0018, its rows. */
export async function listFirewallRules(db: Db, vmId: string): Promise<SimFirewallRuleValue[]> {
  const r = await sql<{ rules: SimFirewallRuleValue[] | null }>`
    SELECT coalesce(v.firewall, (
      SELECT jsonb_agg(jsonb_build_object('position', position, 'direction', direction, 'protocol', protocol, 'port', port, 'source', source, 'action', action)
        ORDER BY position)
      FROM sim_firewall_rules WHERE vm_id = v.id)) AS rules
    FROM sim_vms v WHERE v.id = ${vmId}`.execute(db);
  return r.rows[0]?.rules ?? [];
}

export async function insertSnapshot(trx: Db, row: { id: string; vm_id: string; size_gb: number; os_slug: string | null }): Promise<void> {
  await trx.insertInto('sim_snapshots').values(row).execute();
}

/** Removes a snapshot; false when there was none (already removed). */
export async function deleteSnapshotRow(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('sim_snapshots').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A snapshot, with its machine's node and that node's endpoint (as findVm). */
export function findSnapshot(db: Db, id: string): Promise<(SimSnapshot & { node: string | null; node_endpoint: string | null }) | undefined> {
  return db.selectFrom('sim_snapshots').leftJoin('sim_vms', 'sim_vms.id', 'sim_snapshots.vm_id').leftJoin('nodes', 'nodes.name', 'sim_vms.node')
    .selectAll('sim_snapshots').select(['sim_vms.node', 'nodes.endpoint as node_endpoint']).where('sim_snapshots.id', '=', id).executeTakeFirst();
}

// --- finished requests -----------------------------------------------------------------------

export async function findRequest(db: Db, token: string): Promise<{ result: unknown } | undefined> {
  return db.selectFrom('sim_requests').select('result').where('token', '=', token).executeTakeFirst();
}

/** Records a finished request; false when one with this token was recorded first. */
export async function insertRequest(trx: Db, token: string, result: unknown): Promise<boolean> {
  const row = await trx.insertInto('sim_requests').values({ token, result: JSON.stringify(result ?? null) })
    .onConflict((oc) => oc.column('token').doNothing()).returning('token').executeTakeFirst();
  return row !== undefined;
}

/**
 * The simulated platform's transactions do not wait for their WAL to reach the disk (it holds an
 * address pool's lock until commit, so the flush would be paid by every create behind it). Nothing
 * is lost that matters: the worker's next synchronous commit (the operation it completes with
 * these results) flushes this WAL too, and a crash before it runs the operation again, which asks
 * for the same request token.
 */
export async function skipCommitFlush(trx: Db): Promise<void> {
  await sql`SET LOCAL synchronous_commit = off`.execute(trx);
}
