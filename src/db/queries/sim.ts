// The simulated compute provider's world (the sim_* tables): its address pools and
// leases, machines, firewall rules, snapshots, console sessions and the record of finished
// requests that makes retried calls harmless. A real driver keeps all of this upstream. The fault
// switches of every simulated provider are in sim-faults.ts.
import { type Selectable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { DB, PowerState, SimFaultMode, SimFirewallRuleValue, SimIpPool, SimVm } from '../schema.ts';
import { faultConsumption } from './sim-faults.ts';

export type SimSnapshot = Selectable<DB['sim_snapshots']>;

// --- address pools ---------------------------------------------------------------------------

export interface PoolWithUsage extends SimIpPool {
  /** Addresses leased to a machine now. */
  used: number;
}

export async function listPoolsPage(db: Db, locationId: number | undefined, limit: number, offset: number): Promise<{ rows: PoolWithUsage[]; total: number }> {
  let q = db.selectFrom('sim_ip_pools');
  if (locationId !== undefined) q = q.where('location_id', '=', locationId);
  const [rows, count] = await Promise.all([
    q.selectAll('sim_ip_pools')
      .select((eb) => eb.selectFrom('sim_ip_leases').whereRef('sim_ip_leases.pool_id', '=', 'sim_ip_pools.id')
        .where('vm_id', 'is not', null).select((e) => e.fn.countAll<string>().as('n')).as('used'))
      .orderBy('location_id').orderBy('version').orderBy('id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, used: Number(r.used ?? 0) })), total: Number(count.n) };
}

/** A pool sharing at least one address with `cidr`. */
export function findOverlappingPool(db: Db, cidr: string): Promise<SimIpPool | undefined> {
  return db.selectFrom('sim_ip_pools').selectAll().where(sql<boolean>`cidr && ${cidr}::cidr`).orderBy('id').executeTakeFirst();
}

export function insertPool(db: Db, row: { location_id: number; version: 4 | 6; cidr: string; gateway: string }): Promise<SimIpPool> {
  return db.insertInto('sim_ip_pools').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deletes a pool unless an address of it is leased (then `leased` > 0 and nothing changes).
 * Released leases go with it. The pool row is locked first, so no allocation slips in between.
 */
export function deletePoolUnlessLeased(db: Db, id: number): Promise<{ pool: SimIpPool | undefined; leased: number }> {
  return db.transaction().execute(async (trx) => {
    const pool = await trx.selectFrom('sim_ip_pools').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!pool) return { pool, leased: 0 };
    const { n } = await trx.selectFrom('sim_ip_leases').where('pool_id', '=', id).where('vm_id', 'is not', null)
      .select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    if (Number(n) > 0) return { pool, leased: Number(n) };
    await trx.deleteFrom('sim_ip_leases').where('pool_id', '=', id).execute();
    await trx.deleteFrom('sim_ip_pools').where('id', '=', id).execute();
    return { pool, leased: 0 };
  });
}

/** The SQLSTATE of sim_lease_addresses (0016) when a location has too few free addresses. */
const NO_FREE_ADDRESS = 'HC001';

/** What a lease could not get: the database's words ("No free IPv4 address in location 1"). */
export interface LeaseShortfall { shortfall: string }

function shortfallOf(e: unknown): LeaseShortfall | null {
  const err = e as { code?: unknown; message?: unknown };
  return err?.code === NO_FREE_ADDRESS ? { shortfall: String(err.message) } : null;
}

/**
 * Leases `count` addresses of one family in a location to `vmId`, in one statement
 * (sim_lease_addresses, migration 0016): released ones first, then fresh offsets. The location's
 * pools of that family stay locked until the transaction ends. A shortfall aborts `trx`.
 */
export async function leaseAddresses(trx: Db, locationId: number, version: 4 | 6, vmId: string, count: number): Promise<string[] | LeaseShortfall> {
  if (count <= 0) return [];
  try {
    const r = await sql<{ a: string[] }>`SELECT sim_lease_addresses(${locationId}::int, ${version}::int, ${vmId}::text, ${count}::int) AS a`.execute(trx);
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
  return db.selectFrom('sim_ip_leases').innerJoin('sim_ip_pools', 'sim_ip_pools.id', 'sim_ip_leases.pool_id')
    .select(['sim_ip_leases.address', 'sim_ip_pools.version', 'sim_ip_pools.cidr', 'sim_ip_pools.gateway'])
    .where('sim_ip_leases.vm_id', '=', vmId).orderBy('sim_ip_leases.leased_at').orderBy('sim_ip_leases.address').execute();
}

/** Gives one address of a machine back to its pool; false when the machine did not hold it. */
export async function releaseLease(db: Db, vmId: string, address: string): Promise<boolean> {
  const r = await db.updateTable('sim_ip_leases').set({ vm_id: null, leased_at: null, released_at: sql<Date>`now()` })
    .where('vm_id', '=', vmId).where('address', '=', address).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function releaseAllLeases(db: Db, vmId: string): Promise<void> {
  await db.updateTable('sim_ip_leases').set({ vm_id: null, leased_at: null, released_at: sql<Date>`now()` }).where('vm_id', '=', vmId).execute();
}

// --- machines --------------------------------------------------------------------------------

export interface NewSimVm {
  id: string;
  request_token: string;
  location_id: number;
  hostname: string;
  power: PowerState;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  os_slug: string | null;
  /** OpenSSH public keys installed at create. */
  ssh_keys?: string[];
  /** The host it is built on. */
  node?: string | null;
}

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
    FROM unflushed, sim_ip_leases l JOIN sim_ip_pools p ON p.id = l.pool_id
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

// --- console ---------------------------------------------------------------------------------

/** Opens a session that expires `ttlSeconds` from now by the database clock. */
export async function insertConsoleSession(db: Db, token: string, vmId: string, ttlSeconds: number): Promise<Date> {
  const row = await db.insertInto('sim_console_sessions')
    .values({ token, vm_id: vmId, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
    .returning('expires_at').executeTakeFirstOrThrow();
  return row.expires_at;
}

/** Spends a ticket: true once, within its lifetime, while its machine exists. One UPDATE, so two redeemers cannot both win. */
export async function redeemConsoleSession(db: Db, token: string): Promise<boolean> {
  const r = await db.updateTable('sim_console_sessions').set({ used_at: sql<Date>`now()` })
    .where('token', '=', token).where('used_at', 'is', null).where(sql<boolean>`expires_at > now()`)
    .where('vm_id', 'in', (eb) => eb.selectFrom('sim_vms').select('id').where('destroyed_at', 'is', null))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The machine of a spent ticket, for its terminal to attach to: once, within a minute of the link
 * being opened, while the machine exists. null otherwise. With its node and the node's endpoint (as findVm).
 */
export async function claimConsoleAttach(db: Db, token: string): Promise<{ vm_id: string; hostname: string; node: string | null; node_endpoint: string | null } | null> {
  const r = await sql<{ vm_id: string; hostname: string; node: string | null; node_endpoint: string | null }>`
    UPDATE sim_console_sessions s SET attached_at = now()
    FROM sim_vms v LEFT JOIN nodes n ON n.name = v.node
    WHERE s.token = ${token} AND s.used_at IS NOT NULL AND s.attached_at IS NULL AND s.used_at > now() - interval '60 seconds'
      AND v.id = s.vm_id AND v.destroyed_at IS NULL
    RETURNING s.vm_id, v.hostname, v.node, n.endpoint AS node_endpoint`.execute(db);
  return r.rows[0] ?? null;
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
