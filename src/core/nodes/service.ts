// The operator's side of nodes: the inventory with usage, adding a node, setting its status, and
// draining. Draining takes the node out of placement and starts a migration for every server and
// VDC VM on it — live where a node of the same CPU vendor has room, cold otherwise — each in a transaction
// of its own, so one server that cannot move now (busy with another operation, no room) does not
// hold back the others. Setting `draining` again retries those left; the node's `servers`, `vms`
// and `*migrating_away` counts are the drain's progress.
import { lockServerRow } from '../../db/queries/server-ips.ts';
import { findNodeWithUsage, insertNode, listNodesWithUsage, type NodeUsageRow, serversOnNode, setNodeStatus, vmsOnNode } from '../../db/queries/nodes.ts';
import { lockAccountVdcVm } from '../../db/queries/vdc-vms.ts';
import { findServerReferences } from '../../db/queries/servers.ts';
import type { CpuVendor, NodeStatus, Operation } from '../../db/schema.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import type { Ctx, Services } from '../context.ts';
import { type ComputeProvider, type NodeFacts, ProviderError } from '../../providers/compute/types.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import type { Db } from '../types.ts';
import type { OperationOf } from '../operations/runner.ts';
import { type MigrateInput, type MigrateMode, type MigrateParams, startMigration } from './migrate.ts';
import { startVmMigration } from './vm-migrate.ts';

export const NODE_STATUSES = ['active', 'draining', 'disabled'] as const satisfies readonly NodeStatus[];
export const CPU_VENDORS = ['intel', 'amd'] as const satisfies readonly CpuVendor[];
export const NODE_NAME = /^[a-z0-9][a-z0-9.-]{0,62}$/;

export interface OperatorDeps {
  db: Db;
  services: Services;
  now: () => Date;
}

/** A Ctx acting for the account that owns a server (the operator's requests). */
function ctxFor(deps: OperatorDeps, accountId: string): Ctx {
  return { ...deps.services, db: deps.db, accountId, sandbox: false, now: deps.now() };
}

export function listNodes(db: Db, locationId?: number): Promise<NodeUsageRow[]> {
  return listNodesWithUsage(db, locationId);
}

export async function getNode(db: Db, id: number): Promise<NodeUsageRow> {
  const node = await findNodeWithUsage(db, id);
  if (!node) throw notFound('Node');
  return node;
}

export interface AddNodeInput {
  location_id: number;
  name: string;
  /** Sizes and vendor may be left out for a node with an endpoint: the node tells them. */
  cpu_vendor?: CpuVendor;
  cpu_cores?: number;
  ram_mb?: number;
  storage_gb?: number;
  /** How the platform's driver reaches the node (LXD: unix:/… or https://host:8443). */
  endpoint?: string;
  /** The node's certificate fingerprint to pin (https); left out: the one it presents now. */
  fingerprint?: string;
}

/** How long adding a node waits for it to answer. */
const INSPECT_TIMEOUT_MS = 10_000;

/** The facts of a node with an endpoint, as the driver reads them; an unreachable node is a clear error now. */
async function inspect(compute: ComputeProvider | undefined, input: AddNodeInput): Promise<NodeFacts | null> {
  if (input.endpoint === undefined) return null;
  if (!compute?.inspectNode) throw invalid('endpoint', 'nodes with an endpoint need a compute driver that reaches its nodes (COMPUTE_DRIVER=lxd)');
  try {
    return await compute.inspectNode(input.endpoint, input.fingerprint ?? null, INSPECT_TIMEOUT_MS);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    if ((e as { status?: unknown }).status === 400) throw invalid('endpoint', e.message);
    throw new ApiError('UPSTREAM_ERROR', `Node ${input.name} cannot be used: ${e.message}`);
  }
}

export async function addNode(db: Db, input: AddNodeInput, compute?: ComputeProvider): Promise<NodeUsageRow> {
  if (!NODE_NAME.test(input.name)) throw invalid('name', 'a host name: lower-case letters, digits, dots and hyphens, at most 63 characters');
  const { location } = await findServerReferences(db, { planId: null, locationId: input.location_id, osVersionId: null });
  if (!location) throw new ApiError('LOCATION_INVALID', `Location ${input.location_id} does not exist`, [{ field: 'location_id', code: 'INVALID', message: 'no such location' }]);
  const facts = await inspect(compute, input);
  const missing = (['cpu_vendor', 'cpu_cores', 'ram_mb', 'storage_gb'] as const).filter((f) => input[f] === undefined);
  if (!facts && missing.length) throw invalid(missing[0]!, 'is required for a node without an endpoint');
  const cpuVendor = input.cpu_vendor ?? facts?.cpuVendor;
  if (!cpuVendor) throw invalid('cpu_vendor', 'the node does not say its CPU vendor: give intel or amd');
  const node = await inTransaction(db, async (trx) => {
    const row = await insertNode(trx, {
      location_id: input.location_id, name: input.name, cpu_vendor: cpuVendor,
      cpu_cores: input.cpu_cores ?? facts!.cpuCores, ram_mb: input.ram_mb ?? facts!.ramMb, storage_gb: input.storage_gb ?? facts!.storageGb,
      endpoint: input.endpoint ?? null, fingerprint: facts?.fingerprint ?? null,
    });
    // A refusal throws inside: an admin write's audit row must not commit with it.
    if (!row) throw new ApiError('STATE_CONFLICT', `A node named ${input.name} already exists`, [{ field: 'name', code: 'INVALID', message: 'another node has this name' }]);
    setCompanionTarget('node', row.id);
    return row;
  });
  if (!node) throw new ApiError('STATE_CONFLICT', `A node named ${input.name} already exists`, [{ field: 'name', code: 'INVALID', message: 'another node has this name' }]);
  return getNode(db, node.id);
}

export const PLACED = ['server', 'vdc_vm'] as const;
export type Placed = (typeof PLACED)[number];

export interface DrainReport {
  started: { type: Placed; id: string; operation_id: string; mode: MigrateMode }[];
  skipped: { type: Placed; id: string; reason: string }[];
}

export async function updateNodeStatus(deps: OperatorDeps, id: number, status: NodeStatus): Promise<{ node: NodeUsageRow; drain: DrainReport | null }> {
  // The status commits alone (with an admin write's audit row); each move of a drain is an operation of its own.
  await inTransaction(deps.db, async (trx) => {
    if (!(await setNodeStatus(trx, id, status))) throw notFound('Node');
  });
  const drain = status === 'draining' ? await drainNode(deps, id) : null;
  return { node: await getNode(deps.db, id), drain };
}

async function drainNode(deps: OperatorDeps, nodeId: number): Promise<DrainReport> {
  const report: DrainReport = { started: [], skipped: [] };
  const placed = [
    ...(await serversOnNode(deps.db, nodeId)).map((s) => ({ ...s, type: 'server' as const })),
    ...(await vmsOnNode(deps.db, nodeId)).map((v) => ({ ...v, type: 'vdc_vm' as const })),
  ];
  for (const m of placed) {
    if (m.migration_node_id !== null) {
      report.skipped.push({ type: m.type, id: m.id, reason: 'already migrating' });
      continue;
    }
    const move = (mode: MigrateMode) => m.type === 'server' ? migrateServer(deps, m.id, { mode }) : migrateVm(deps, m.account_id, m.id, mode);
    try {
      const op = await move('live').catch((e: unknown) => {
        // Live is the first choice; a node of the same vendor with room is the only thing it needs.
        if (e instanceof ApiError && e.code === 'NODE_INCOMPATIBLE_LIVE_MIGRATE') return move('cold');
        throw e;
      });
      report.started.push({ type: m.type, id: m.id, operation_id: op.id, mode: op.params.mode });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      report.skipped.push({ type: m.type, id: m.id, reason: `${e.code}: ${e.message}` });
    }
  }
  return report;
}

function migrateServer(deps: OperatorDeps, serverId: string, input: MigrateInput): Promise<OperationOf<MigrateParams>> {
  return inTransaction(deps.db, async (trx) => {
    const server = await lockServerRow(trx, serverId);
    if (!server || server.deleted_at) throw notFound('Server');
    return startMigration(ctxFor(deps, server.account_id), trx, server, input, true);
  });
}

function migrateVm(deps: OperatorDeps, accountId: string, vmId: string, mode: MigrateMode): Promise<OperationOf<MigrateParams>> {
  return inTransaction(deps.db, async (trx) => {
    const vm = await lockAccountVdcVm(trx, accountId, vmId);
    if (!vm) throw notFound('VM');
    return startVmMigration(ctxFor(deps, accountId), trx, vm, { mode });
  });
}

/** POST /admin/v1/servers/{id}/migrate: any account's server, to a node of the operator's choice or placement's. */
export function migrateServerAsOperator(deps: OperatorDeps, serverId: string, input: MigrateInput): Promise<Operation> {
  return migrateServer(deps, serverId, input);
}
