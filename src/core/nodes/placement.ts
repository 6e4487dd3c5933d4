// Placement: which hypervisor node a new machine (server or VDC VM) goes to, and where a migration
// takes one. The policy, documented in docs/behaviour.md ("Nodes and migration"): among the
// location's `active` nodes that have room for the machine's vCPUs, RAM and disk, the one with the
// most free RAM; a tie goes to the most free vCPUs, then the lowest id. Most-free-RAM spreads load (RAM is what KVM hosts run out
// of first) and leaves room for resizes. The pick happens with the location's nodes locked, and
// the node rows' triggers refuse anything that does not fit (migration 0010), so concurrent
// creates never overfill a node.
import { isCheckViolation } from '../../db/refusals.ts';
import { lockActiveNodes, lockNode } from '../../db/queries/nodes.ts';
import { changeServerSize } from '../../db/queries/servers.ts';
import type { CpuVendor, Node } from '../../db/schema.ts';
import type { ComputeProvider, MachineSpec } from '../../providers/compute/types.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../types.ts';

export interface Free { cpu: number; ramMb: number; storageGb: number }

export function freeOf(node: Pick<Node, 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'used_cpu' | 'used_ram_mb' | 'used_storage_gb'>): Free {
  return { cpu: node.cpu_cores - node.used_cpu, ramMb: node.ram_mb - node.used_ram_mb, storageGb: node.storage_gb - node.used_storage_gb };
}

/** What placement reads of a node. */
export type Placeable = Pick<Node, 'id' | 'status' | 'cpu_vendor' | 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'used_cpu' | 'used_ram_mb' | 'used_storage_gb'>
  & Partial<Pick<Node, 'endpoint'>>;

/**
 * The nodes an installation's compute driver can serve: LXD servers (reached at an endpoint) or
 * the simulated platform's (none). A node of the other kind is never picked: no worker of this
 * installation could build the machine there, and the customer would pay for an operation that
 * waits for ever (the demo seed's simulated nodes under COMPUTE_DRIVER=lxd).
 */
export type NodeKind = 'endpoint' | 'local';

export function servedNodes(compute: Pick<ComputeProvider, 'capabilities'>): NodeKind {
  return compute.capabilities?.endpointNodes === true ? 'endpoint' : 'local';
}

export function serves(kind: NodeKind, node: Partial<Pick<Node, 'endpoint'>>): boolean {
  return (node.endpoint !== null && node.endpoint !== undefined) === (kind === 'endpoint');
}

export function fits(node: Placeable, spec: MachineSpec): boolean {
  const free = freeOf(node);
  return free.cpu >= spec.cpuCores && free.ramMb >= spec.ramMb && free.storageGb >= spec.storageGb;
}

export interface PickOptions {
  /** Only nodes of this CPU vendor (a live migration's target). */
  vendor?: CpuVendor;
  /** Never this node (a migration's source). */
  exclude?: number | null;
  /** Only nodes of this kind (the installation's driver's: servedNodes). */
  served?: NodeKind;
}

/** The policy itself, on nodes already read: undefined when none fits. */
export function pickNode<N extends Placeable>(nodes: N[], spec: MachineSpec, opts: PickOptions = {}): N | undefined {
  const candidates = nodes.filter((n) => n.status === 'active' && n.id !== opts.exclude && (!opts.vendor || n.cpu_vendor === opts.vendor)
    && (!opts.served || serves(opts.served, n)) && fits(n, spec));
  candidates.sort((a, b) => {
    const fa = freeOf(a);
    const fb = freeOf(b);
    return fb.ramMb - fa.ramMb || fb.cpu - fa.cpu || a.id - b.id;
  });
  return candidates[0];
}

export function noCapacity(locationId: number, spec: MachineSpec): ApiError {
  return new ApiError('CAPACITY_UNAVAILABLE',
    `No node in location ${locationId} has room for ${spec.cpuCores} vCPU, ${spec.ramMb} MB RAM and ${spec.storageGb} GB disk; try another location or a smaller size`);
}

/** Locks the location's active nodes and picks one of kind `served` for `spec`; CAPACITY_UNAVAILABLE when none has room. */
export async function placeMachine(trx: Db, locationId: number, spec: MachineSpec, served: NodeKind): Promise<Node> {
  const node = pickNode(await lockActiveNodes(trx, locationId), spec, { served });
  if (!node) throw noCapacity(locationId, spec);
  return node;
}

/** The node triggers' refusal (a placement that no longer fits), as the API's CAPACITY_UNAVAILABLE. */
export async function withCapacityCheck<T>(locationId: number, spec: MachineSpec, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (isCheckViolation(e, 'node_full')) throw noCapacity(locationId, spec);
    throw e;
  }
}

/**
 * A machine growing in place (server resize or upgrade) needs the growth free on its node: checked
 * with the node locked, so it queues with placements there. A machine without a node (made before
 * nodes existed) is not checked.
 */
export async function requireNodeRoom(trx: Db, nodeId: number | null, from: MachineSpec, to: MachineSpec): Promise<void> {
  if (nodeId === null) return;
  const growth = growthOf(from, to);
  if (growth.cpuCores + growth.ramMb + growth.storageGb === 0) return;
  const node = await lockNode(trx, nodeId);
  if (node && !fits(node, growth)) throw noRoomToGrow(growth);
}

const growthOf = (from: MachineSpec, to: MachineSpec): MachineSpec =>
  ({ cpuCores: Math.max(0, to.cpuCores - from.cpuCores), ramMb: Math.max(0, to.ramMb - from.ramMb), storageGb: Math.max(0, to.storageGb - from.storageGb) });

const noRoomToGrow = (growth: MachineSpec) => new ApiError('CAPACITY_UNAVAILABLE',
  `The host this server runs on has no room for ${growth.cpuCores} more vCPU, ${growth.ramMb} MB RAM and ${growth.storageGb} GB disk; migrate the server (action migrate) and try again`);

/**
 * A server resize accepted: checks the growth's room (requireNodeRoom) and holds it on the node
 * until the resize completes or fails (migration 0015), so nothing placed meanwhile can take it.
 * The hold's trigger refuses it in SQL too when it does not fit.
 */
export async function holdServerGrowth(trx: Db, serverId: string, nodeId: number | null, from: MachineSpec, to: MachineSpec): Promise<void> {
  await requireNodeRoom(trx, nodeId, from, to);
  const growth = growthOf(from, to);
  if (growth.cpuCores + growth.ramMb + growth.storageGb === 0) return;
  try {
    await changeServerSize(trx, serverId, { resize_hold_cpu: growth.cpuCores, resize_hold_ram_mb: growth.ramMb, resize_hold_storage_gb: growth.storageGb }, 0);
  } catch (e) {
    if (isCheckViolation(e, 'node_full')) throw noRoomToGrow(growth);
    throw e;
  }
}

/** What a resize's completion or failure writes with it: the hold released (the size settles it). */
export const NO_RESIZE_HOLD = { resize_hold_cpu: 0, resize_hold_ram_mb: 0, resize_hold_storage_gb: 0 } as const;
