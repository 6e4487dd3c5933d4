// server.migrate, accepted: checks in the API's check order (docs/architecture.md, "Check order") (input, references, state, capacity),
// then the target node is held (the server holds its size on both nodes while it moves) and the
// operation queued, in one transaction. Nothing is charged: a migration costs the customer nothing,
// and a move to another location keeps the price (its extra addresses follow it, renumbered).
import { findNode, lockActiveNodes, setServerPlacement } from '../../db/queries/nodes.ts';
import { findServerReferences } from '../../db/queries/servers.ts';
import type { Node, Server } from '../../db/schema.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import { isServerLocation } from '../catalog/customer-lists.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import type { OperationOf } from '../operations/runner.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { refuseWhileBuilding } from '../machines/guards.ts';
import { type NodeKind, fits, noCapacity, pickNode, serves, servedNodes, withCapacityCheck } from './placement.ts';
import { suspendedConflict } from '../billing/suspension.ts';

import type { MigrateMode, MigrateParams } from './runners/server.migrate.ts';

export { MIGRATE_MODES, type MigrateMode, type MigrateParams } from './runners/server.migrate.ts';

export interface MigrateInput {
  /** Default live (cold when the location changes). */
  mode?: MigrateMode;
  location_id?: number;
  /** Operator only: the node to move to (default: placement's pick). */
  node_id?: number;
  /**
   * Operator only: a member of the server's node when that node is a cluster (LXD): the server
   * moves there with the cluster's own move and stays on its node (default mode cold).
   */
  member?: string;
}

export const MIGRATE_OPERATION = 'server.migrate';

function incompatible(source: Node, target: Pick<Node, 'cpu_vendor'>): ApiError {
  return new ApiError('NODE_INCOMPATIBLE_LIVE_MIGRATE',
    `Live migration is impossible between CPU vendors (${source.cpu_vendor} → ${target.cpu_vendor}); use cold migration (mode "cold")`,
    [{ field: 'mode', code: 'INVALID', message: 'no node with room shares the CPU vendor of the current one; use "cold"' }]);
}

/**
 * A live move of a running machine on a platform that cannot move memory (LXD without CRIU):
 * refused before anything is queued, saying that a cold move works. A stopped machine moves
 * offline whatever the mode, so it is not refused.
 */
export function refuseUnsupportedLive(ctx: Pick<Ctx, 'compute'>, mode: MigrateMode, power: string): void {
  if (mode !== 'live' || power !== 'running' || ctx.compute.capabilities?.liveMigration !== false) return;
  throw new ApiError('NODE_INCOMPATIBLE_LIVE_MIGRATE', 'Live migration is not supported by this platform\'s nodes; use cold migration (mode "cold")',
    [{ field: 'mode', code: 'INVALID', message: 'the platform cannot move a running machine; use "cold"' }]);
}

/**
 * Where a machine on node `current` goes: the named node (it must be active, of the same CPU
 * vendor for a live move, with room), or placement's pick among the others — for a live move
 * among those of the same vendor, and if only another vendor has room, NODE_INCOMPATIBLE_LIVE_MIGRATE
 * says a cold move would work. Locks the location's active nodes for the caller's transaction.
 */
export async function chooseTarget(trx: Db, want: { locationId: number; current: number | null; spec: MachineSpec; mode: MigrateMode; named?: Node; served: NodeKind }): Promise<Node> {
  const { locationId, current, spec, mode, named, served } = want;
  const source = current === null ? undefined : await findNode(trx, current);
  const nodes = await lockActiveNodes(trx, locationId);
  if (named) {
    const target = nodes.find((n) => n.id === named.id);
    if (!target) throw new ApiError('STATE_CONFLICT', `Node ${named.id} is ${named.status}; machines move only to an active node`);
    if (!serves(served, target)) {
      throw new ApiError('STATE_CONFLICT', `Node ${named.id} is ${target.endpoint ? 'an LXD server' : 'a simulated node'}, which this installation's compute driver does not serve`);
    }
    if (mode === 'live' && source && source.cpu_vendor !== target.cpu_vendor) throw incompatible(source, target);
    if (!fits(target, spec)) throw noCapacity(locationId, spec);
    return target;
  }
  const target = pickNode(nodes, spec, { exclude: current, vendor: mode === 'live' ? source?.cpu_vendor : undefined, served });
  if (target) return target;
  const other = mode === 'live' && source ? pickNode(nodes, spec, { exclude: current, served }) : undefined;
  if (other && source) throw incompatible(source, other);
  throw noCapacity(locationId, spec);
}

/**
 * Starts the migration of `server` (locked by the caller, in `trx`). `operator`: the admin API —
 * it may name the node and move a suspended server; customers move active servers only.
 */
export async function startMigration(ctx: Ctx, trx: Db, server: Server, input: MigrateInput, operator: boolean): Promise<OperationOf<MigrateParams>> {
  if (input.member !== undefined) return startMemberMove(ctx, trx, server, { ...input, member: input.member });
  const toLocation = input.location_id ?? server.location_id;
  const moving = toLocation !== server.location_id;
  if (moving && input.mode === 'live') throw invalid('mode', 'a move to another location is cold only (omit mode or use "cold")');
  const mode: MigrateMode = moving ? 'cold' : input.mode ?? 'live';

  if (moving) {
    const { location } = await findServerReferences(trx, { planId: null, locationId: toLocation, osVersionId: null });
    if (!location || !isServerLocation(location)) {
      throw new ApiError('LOCATION_INVALID', `Location ${toLocation} is not available for servers`, [
        { field: 'location_id', code: 'INVALID', message: 'not a location servers can be created in (see GET /locations)' },
      ]);
    }
  }
  const named = input.node_id === undefined ? undefined : await findNode(trx, input.node_id);
  if (input.node_id !== undefined && !named) throw notFound('Node');
  if (named && named.location_id !== toLocation) throw invalid('node_id', `node ${named.id} is in location ${named.location_id}, not ${toLocation}`);

  await refuseWhileBuilding(trx, server);
  if (!(server.status === 'active' || (operator && server.status === 'suspended')) || !server.provider_ref) {
    throw new ApiError('STATE_CONFLICT', suspendedConflict('Server', server.id, server.status) ?? `Server ${server.id} is ${server.status}; only an active server can be migrated`);
  }
  if (named && named.id === server.node_id) throw new ApiError('STATE_CONFLICT', `Server ${server.id} already runs on node ${named.id}`);

  refuseUnsupportedLive(ctx, mode, server.power_state);
  const spec = { cpuCores: server.cpu_cores, ramMb: server.ram_mb, storageGb: server.storage_gb };
  const target = await chooseTarget(trx, { locationId: toLocation, current: server.node_id, spec, mode, named, served: servedNodes(ctx.compute) });

  const params: MigrateParams = {
    mode, from_node_id: server.node_id, to_node_id: target.id, from_location_id: server.location_id, to_location_id: toLocation, power_before: server.power_state,
  };
  const operation = await startOperation(ctx, trx, {
    type: MIGRATE_OPERATION, resourceId: server.id, params,
    detail: `Queued: ${mode} migration${moving ? ` to location ${toLocation}` : ''}`,
  });
  await withCapacityCheck(toLocation, spec, () => setServerPlacement(trx, server.id, { migration_node_id: target.id, power_state: 'migrating' }));
  return operation;
}

/**
 * A move between the members of the server's own node (an LXD cluster): the node, the location and
 * the addresses stay; only the member holding the instance changes, so no capacity moves either.
 * Cold unless asked otherwise (LXD moves a stopped instance's disk between members).
 */
async function startMemberMove(ctx: Ctx, trx: Db, server: Server, input: MigrateInput & { member: string }): Promise<OperationOf<MigrateParams>> {
  if (ctx.compute.capabilities?.clusterMembers !== true) {
    throw invalid('member', 'this installation\'s nodes have no members (only LXD clusters do, with COMPUTE_DRIVER=lxd)');
  }
  if (input.location_id !== undefined && input.location_id !== server.location_id) {
    throw invalid('member', 'a move to a member keeps the server on its node, in its location; leave out location_id');
  }
  if (input.node_id !== undefined && input.node_id !== server.node_id) {
    throw invalid('member', 'a member is one of the server\'s own node; leave out node_id');
  }
  await refuseWhileBuilding(trx, server);
  if (!(server.status === 'active' || server.status === 'suspended') || !server.provider_ref) {
    throw new ApiError('STATE_CONFLICT', suspendedConflict('Server', server.id, server.status) ?? `Server ${server.id} is ${server.status}; only an active server can be migrated`);
  }
  if (server.node_id === null) throw new ApiError('STATE_CONFLICT', `Server ${server.id} has no node, so no member to move between`);
  const mode: MigrateMode = input.mode ?? 'cold';
  refuseUnsupportedLive(ctx, mode, server.power_state);
  const params: MigrateParams = {
    mode, from_node_id: server.node_id, to_node_id: server.node_id, from_location_id: server.location_id, to_location_id: server.location_id,
    power_before: server.power_state, to_member: input.member,
  };
  const operation = await startOperation(ctx, trx, {
    type: MIGRATE_OPERATION, resourceId: server.id, params, detail: `Queued: ${mode} migration to member ${input.member} of its node`,
  });
  await setServerPlacement(trx, server.id, { migration_node_id: server.node_id, power_state: 'migrating' });
  return operation;
}
