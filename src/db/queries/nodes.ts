// Hypervisor nodes: placement reads, the operator's inventory, and where servers run.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { CpuVendor, Node, NodeStatus, PowerState, Server, ServerNetwork, VdcVm } from '../schema.ts';

/**
 * The active nodes of a location, locked in id order for the rest of the transaction: placements
 * in one location queue here, so each picks with the counters the one before it left.
 */
export function lockActiveNodes(db: Db, locationId: number): Promise<Node[]> {
  return db.selectFrom('nodes').selectAll().where('location_id', '=', locationId).where('status', '=', 'active').orderBy('id').forUpdate().execute();
}

export function lockNode(db: Db, id: number): Promise<Node | undefined> {
  return db.selectFrom('nodes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findNode(db: Db, id: number): Promise<Node | undefined> {
  return db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NodeUsageRow extends Node {
  servers: number;
  vms: number;
  /** Servers moving off this node (a migration running). */
  migrating_away: number;
  /** VMs moving off this node. */
  vms_migrating_away: number;
}

const usage = (db: Db) => db.selectFrom('nodes').selectAll('nodes')
  .select((eb) => [
    eb.selectFrom('servers').select(sql<number>`count(*)::int`.as('n'))
      .whereRef('servers.node_id', '=', 'nodes.id').where('servers.deleted_at', 'is', null).where('servers.status', '<>', 'cancelled').as('servers'),
    eb.selectFrom('vdc_vms').select(sql<number>`count(*)::int`.as('n'))
      .whereRef('vdc_vms.node_id', '=', 'nodes.id').where('vdc_vms.deleted_at', 'is', null).where('vdc_vms.status', '<>', 'failed').as('vms'),
    eb.selectFrom('servers').select(sql<number>`count(*)::int`.as('n'))
      .whereRef('servers.node_id', '=', 'nodes.id').where('servers.migration_node_id', 'is not', null).where('servers.deleted_at', 'is', null).as('migrating_away'),
    eb.selectFrom('vdc_vms').select(sql<number>`count(*)::int`.as('n'))
      .whereRef('vdc_vms.node_id', '=', 'nodes.id').where('vdc_vms.migration_node_id', 'is not', null).where('vdc_vms.deleted_at', 'is', null).as('vms_migrating_away'),
  ]);

export async function listNodesWithUsage(db: Db, locationId: number | undefined): Promise<NodeUsageRow[]> {
  let q = usage(db);
  if (locationId !== undefined) q = q.where('nodes.location_id', '=', locationId);
  return (await q.orderBy('nodes.location_id').orderBy('nodes.id').execute()) as NodeUsageRow[];
}

export async function findNodeWithUsage(db: Db, id: number): Promise<NodeUsageRow | undefined> {
  return (await usage(db).where('nodes.id', '=', id).executeTakeFirst()) as NodeUsageRow | undefined;
}

export function insertNode(db: Db, row: {
  location_id: number; name: string; cpu_vendor: CpuVendor; cpu_cores: number; ram_mb: number; storage_gb: number; endpoint?: string | null; fingerprint?: string | null;
}): Promise<Node | undefined> {
  return db.insertInto('nodes').values(row).onConflict((oc) => oc.column('name').doNothing()).returningAll().executeTakeFirst();
}

export function setNodeStatus(db: Db, id: number, status: NodeStatus): Promise<Node | undefined> {
  return db.updateTable('nodes').set({ status, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}

/** The live servers placed on a node (their ids and accounts), oldest first. */
export function serversOnNode(db: Db, nodeId: number): Promise<Pick<Server, 'id' | 'account_id' | 'status' | 'migration_node_id'>[]> {
  return db.selectFrom('servers').select(['id', 'account_id', 'status', 'migration_node_id'])
    .where('node_id', '=', nodeId).where('deleted_at', 'is', null).where('status', '<>', 'cancelled')
    .orderBy('created_at').orderBy('id').execute();
}

/** The live VMs placed on a node, oldest first. */
export function vmsOnNode(db: Db, nodeId: number): Promise<Pick<VdcVm, 'id' | 'account_id' | 'status' | 'migration_node_id'>[]> {
  return db.selectFrom('vdc_vms').select(['id', 'account_id', 'status', 'migration_node_id'])
    .where('node_id', '=', nodeId).where('deleted_at', 'is', null).where('status', '<>', 'failed')
    .orderBy('created_at').orderBy('id').execute();
}

export async function setVmPlacement(db: Db, id: string, patch: { node_id?: number | null; migration_node_id?: number | null; power_state?: PowerState }): Promise<void> {
  await db.updateTable('vdc_vms').set({ ...patch, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function nodeNameOf(db: Db, id: number | null): Promise<string | null> {
  if (id === null) return null;
  return (await db.selectFrom('nodes').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;
}

export interface PlacementPatch {
  node_id?: number | null;
  migration_node_id?: number | null;
  location_id?: number;
  power_state?: PowerState;
  network?: ServerNetwork;
}

export async function setServerPlacement(db: Db, id: string, patch: PlacementPatch): Promise<void> {
  const { network, ...rest } = patch;
  await db.updateTable('servers')
    .set({ ...rest, ...(network ? { network: JSON.stringify(network) } : {}), updated_at: new Date() })
    .where('id', '=', id).execute();
}

/** After a move to another location: each extra address row takes its new address (same family, same price). */
export async function renumberServerIps(db: Db, serverId: string, addresses: { address: string; version: 4 | 6 }[]): Promise<void> {
  const rows = await db.selectFrom('server_ips').select(['id', 'version']).where('server_id', '=', serverId).where('released_at', 'is', null).orderBy('id').execute();
  const free = { 4: addresses.filter((a) => a.version === 4).map((a) => a.address), 6: addresses.filter((a) => a.version === 6).map((a) => a.address) };
  for (const row of rows) {
    const address = free[row.version].shift() ?? null;
    await db.updateTable('server_ips').set({ address }).where('id', '=', row.id).execute();
  }
}
