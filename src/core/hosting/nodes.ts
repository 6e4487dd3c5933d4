// The operator's hosting nodes (HOSTING_DRIVER=native): adding one (it is reached at once, its SSH
// host key pinned and what it lacks recorded), the inventory with accounts and disk, checking a
// node again, and disabling or enabling it for new accounts. The driver reaches the nodes; the
// rules and the records are here.
import { findServerReferences } from '../../db/queries/servers.ts';
import {
  type HostingNodeUsage, findHostingNode, hostingNodeNameTaken, insertHostingNode, listHostingNodes, recordHostingNodeCheck, setHostingNodeStatus,
} from '../../db/queries/hosting-nodes.ts';
import type { HostingNodeStatus } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/refusals.ts';
import { type HostingNodeTools, type HostingPanel, ProviderError, hostingNodeTools } from '../../providers/hosting/types.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import type { Db } from '../types.ts';

export const HOSTING_NODE_NAME = /^[a-z0-9][a-z0-9.-]{0,62}$/;
export const HOSTING_NODE_HOST = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;
export const HOSTING_NODE_STATUSES = ['enabled', 'disabled'] as const satisfies readonly HostingNodeStatus[];

/** How long adding or checking a node waits for it. */
const INSPECT_TIMEOUT_MS = 10_000;

export interface AddHostingNodeInput {
  name: string;
  location_id?: number | null;
  host: string;
  port?: number;
  user?: string;
  http_port?: number;
  max_accounts?: number;
  config?: Record<string, string>;
}

function tools(panel: HostingPanel): HostingNodeTools {
  const t = hostingNodeTools(panel);
  if (!t) throw new ApiError('STATE_CONFLICT', 'Hosting nodes need HOSTING_DRIVER=native; this installation runs another hosting driver');
  return t;
}

/** Our SSH public key, for the nodes' authorized_keys (made at first use). */
export function hostingSshPublicKey(panel: HostingPanel): Promise<string> {
  return tools(panel).sshPublicKey();
}

function unreachable(name: string, e: unknown): never {
  if (e instanceof ProviderError) throw new ApiError('UPSTREAM_ERROR', `Hosting node ${name} cannot be used: ${e.message}`);
  throw e;
}

export function listNodes(db: Db): Promise<HostingNodeUsage[]> {
  return listHostingNodes(db);
}

export async function getHostingNode(db: Db, id: number): Promise<HostingNodeUsage> {
  const node = await findHostingNode(db, id);
  if (!node) throw notFound('Hosting node');
  return node;
}

export async function addHostingNode(db: Db, panel: HostingPanel, input: AddHostingNodeInput, now: Date): Promise<HostingNodeUsage> {
  const t = tools(panel);
  if (!HOSTING_NODE_NAME.test(input.name)) throw invalid('name', 'a host name: lower-case letters, digits, dots and hyphens, at most 63 characters');
  if (!HOSTING_NODE_HOST.test(input.host)) throw invalid('host', 'a host name or IP address');
  if (input.user !== undefined && !/^[a-z_][a-z0-9_-]{0,31}$/.test(input.user)) throw invalid('user', 'a Unix user name');
  const problem = t.nodeConfigProblem(input.config ?? {});
  if (problem) throw invalid('config', problem);
  if (input.location_id !== undefined && input.location_id !== null) {
    const { location } = await findServerReferences(db, { planId: null, locationId: input.location_id, osVersionId: null });
    if (!location) throw new ApiError('LOCATION_INVALID', `Location ${input.location_id} does not exist`, [{ field: 'location_id', code: 'INVALID', message: 'no such location' }]);
  }
  if (await hostingNodeNameTaken(db, input.name)) throw nameTaken(input.name);
  const target = { name: input.name, host: input.host, port: input.port ?? 22, user: input.user ?? 'root', config: input.config ?? {} };
  const seen = await t.inspectNode({ ...target, hostKey: null }, INSPECT_TIMEOUT_MS).catch((e: unknown) => unreachable(input.name, e));
  let id: number;
  try {
    // The node and its first check commit together (with an admin write's audit row).
    id = await inTransaction(db, async (trx) => {
      const { id: made } = await insertHostingNode(trx, {
        name: input.name, location_id: input.location_id ?? null, host: target.host, port: target.port, ssh_user: target.user,
        http_port: input.http_port ?? 80, host_key: seen.hostKey, max_accounts: input.max_accounts ?? 500, config: target.config,
      });
      setCompanionTarget('hosting_node', made);
      await recordHostingNodeCheck(trx, made, seen, now);
      return made;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(input.name);
    throw e;
  }
  return getHostingNode(db, id);
}

const nameTaken = (name: string) => new ApiError('STATE_CONFLICT', `A hosting node named ${name} already exists`, [{ field: 'name', code: 'INVALID', message: 'another hosting node has this name' }]);

/** Reaches the node with its pinned host key and records what it lacks now; a changed key is refused (502). */
export async function checkHostingNode(db: Db, panel: HostingPanel, id: number, now: Date): Promise<HostingNodeUsage> {
  const t = tools(panel);
  const node = await getHostingNode(db, id);
  const seen = await t.inspectNode({ name: node.name, host: node.host, port: node.port, user: node.ssh_user, hostKey: node.host_key, config: node.config }, INSPECT_TIMEOUT_MS)
    .catch((e: unknown) => unreachable(node.name, e));
  await inTransaction(db, (trx) => recordHostingNodeCheck(trx, id, seen, now));
  return getHostingNode(db, id);
}

export async function setHostingNodeEnabled(db: Db, id: number, status: HostingNodeStatus, now: Date): Promise<HostingNodeUsage> {
  await inTransaction(db, async (trx) => {
    if (!(await setHostingNodeStatus(trx, id, status, now))) throw notFound('Hosting node');
  });
  return getHostingNode(db, id);
}
