// Hosting nodes and the accounts the native hosting driver placed on them (hosting_nodes,
// hosting_node_accounts). The driver (src/providers/hosting/native) and the operator's routes use these.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { HostingNode, HostingNodeAccount, HostingNodeAccountState, HostingNodeStatus } from '../schema.ts';

export interface HostingNodeUsage extends HostingNode {
  /** Live accounts (being created, active or suspended). */
  accounts: number;
}

const usage = (db: Db) => db.selectFrom('hosting_nodes as n')
  .selectAll('n')
  .select((eb) => eb.selectFrom('hosting_node_accounts as a')
    .select(sql<number>`count(*)::int`.as('c'))
    .whereRef('a.node_id', '=', 'n.id').where('a.state', '<>', 'terminated')
    .as('accounts'));

export function listHostingNodes(db: Db): Promise<HostingNodeUsage[]> {
  return usage(db).orderBy('n.id').execute() as Promise<HostingNodeUsage[]>;
}

export function findHostingNode(db: Db, id: number): Promise<HostingNodeUsage | undefined> {
  return usage(db).where('n.id', '=', id).executeTakeFirst() as Promise<HostingNodeUsage | undefined>;
}

export function hostingNodeNameTaken(db: Db, name: string): Promise<boolean> {
  return db.selectFrom('hosting_nodes').select('id').where('name', '=', name).executeTakeFirst().then((r) => r !== undefined);
}

export interface NewHostingNode {
  name: string;
  location_id: number | null;
  host: string;
  port: number;
  ssh_user: string;
  http_port: number;
  host_key: string;
  max_accounts: number;
  config: Record<string, unknown>;
}

export function insertHostingNode(db: Db, n: NewHostingNode): Promise<HostingNode> {
  return db.insertInto('hosting_nodes').values({ ...n, config: JSON.stringify(n.config) }).returningAll().executeTakeFirstOrThrow();
}

export interface NodeCheck {
  missing: string[];
  diskTotalMb: number | null;
  diskFreeMb: number | null;
  quotas: boolean;
}

export async function recordHostingNodeCheck(db: Db, id: number, c: NodeCheck, now: Date): Promise<void> {
  await db.updateTable('hosting_nodes').set({
    missing: c.missing, disk_total_mb: c.diskTotalMb, disk_free_mb: c.diskFreeMb, quotas: c.quotas, checked_at: now, updated_at: now,
  }).where('id', '=', id).execute();
}

export async function setHostingNodeStatus(db: Db, id: number, status: HostingNodeStatus, now: Date): Promise<boolean> {
  const r = await db.updateTable('hosting_nodes').set({ status, updated_at: now }).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Locks every enabled node, in id order, for the transaction: a placement reads all their usage. */
export async function lockEnabledHostingNodes(db: Db): Promise<void> {
  await db.selectFrom('hosting_nodes').select('id').where('status', '=', 'enabled').orderBy('id').forUpdate().execute();
}

export function findNodeAccount(db: Db, id: string): Promise<HostingNodeAccount | undefined> {
  return db.selectFrom('hosting_node_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findNodeAccountByToken(db: Db, token: string): Promise<HostingNodeAccount | undefined> {
  return db.selectFrom('hosting_node_accounts').selectAll().where('request_token', '=', token).executeTakeFirst();
}

export async function nodeDomainTaken(db: Db, domain: string): Promise<boolean> {
  const r = await db.selectFrom('hosting_node_accounts').select('id').where('domain', '=', domain).where('state', '<>', 'terminated').executeTakeFirst();
  return r !== undefined;
}

/** Usernames of live accounts on the node beginning with `prefix`. */
export async function nodeUsernames(db: Db, nodeId: number, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('hosting_node_accounts').select('username')
    .where('node_id', '=', nodeId).where('state', '<>', 'terminated').where('username', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}%`).execute();
  return rows.map((r) => r.username);
}

export interface NewNodeAccount {
  id: string;
  node_id: number;
  request_token: string;
  username: string;
  domain: string;
  quota_mb: number;
  max_databases: number;
}

export function insertNodeAccount(db: Db, a: NewNodeAccount): Promise<HostingNodeAccount> {
  return db.insertInto('hosting_node_accounts').values(a).returningAll().executeTakeFirstOrThrow();
}

export async function setNodeAccountState(db: Db, id: string, state: HostingNodeAccountState, extra: { quota_enforced?: boolean } = {}): Promise<void> {
  await db.updateTable('hosting_node_accounts').set({ state, ...extra, updated_at: new Date() }).where('id', '=', id).execute();
}
