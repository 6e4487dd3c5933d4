// One LXD client per node (by the node's name, as placement names it), made on first use from the
// node's endpoint and pinned fingerprint, and remade when the operator changes either. The first
// use of a node also makes sure our LXD project exists there.
import type { Db } from '../../../db/connection.ts';
import { findLxdNode } from '../../../db/queries/lxd.ts';
import { WrongPlatformError } from '../../errors.ts';
import type { NodeFacts } from '../types.ts';
import type { LxdResources, LxdServer, LxdStoragePoolResources } from './api-types.ts';
import { LxdClient, LxdError, isConflict } from './client.ts';
import { type ClientCertificate, formatEndpoint } from './transport.ts';

export interface NodeClientsOptions {
  db: Db;
  project: string;
  /** Our client certificate, read lazily (only https nodes need it). */
  certificate: () => Promise<ClientCertificate>;
  timeoutMs?: number;
}

export class NodeClients {
  private readonly clients = new Map<string, { key: string; client: Promise<LxdClient> }>();

  constructor(private readonly opts: NodeClientsOptions) {}

  /**
   * The client of the node named `name`; a final error when the node is unknown. A machine without
   * a node, or a node without an endpoint, is the simulated platform's: refused (platform.ts).
   */
  async of(name: string | null | undefined): Promise<LxdClient> {
    if (!name) throw new WrongPlatformError('lxd', null);
    const node = await findLxdNode(this.opts.db, name);
    if (!node) throw new LxdError(`Node ${name} does not exist`, null, false);
    if (!node.endpoint) throw new WrongPlatformError('lxd', name);
    const key = `${node.endpoint}|${node.fingerprint ?? ''}`;
    const cached = this.clients.get(name);
    if (cached && cached.key === key) return cached.client;
    if (cached) void cached.client.then((c) => c.close(), () => {});
    const client = this.make(node.endpoint, node.fingerprint);
    this.clients.set(name, { key, client });
    // A failed start (project not made: node down) is not kept: the next call tries again.
    client.catch(() => {
      if (this.clients.get(name)?.client === client) this.clients.delete(name);
    });
    return client;
  }

  private async make(endpoint: string, fingerprint: string | null): Promise<LxdClient> {
    const https = endpoint.startsWith('https:');
    const client = new LxdClient({
      endpoint, fingerprint, project: this.opts.project, timeoutMs: this.opts.timeoutMs,
      client: https ? await this.opts.certificate() : null,
    });
    try {
      await ensureProject(client, this.opts.project);
    } catch (e) {
      client.close();
      throw e;
    }
    return client;
  }

  close(): void {
    for (const { client } of this.clients.values()) void client.then((c) => c.close(), () => {});
    this.clients.clear();
  }
}

/**
 * Our project on a server, made when missing. Images and profiles are the default project's
 * (features.images/profiles=false): the operator imports images and sets up the `default` profile once.
 */
export async function ensureProject(client: LxdClient, project: string): Promise<void> {
  if (project === 'default') return;
  try {
    await client.get(`/1.0/projects/${encodeURIComponent(project)}`, { global: true });
    return;
  } catch (e) {
    if (!(e instanceof LxdError) || e.status !== 404) throw e;
  }
  try {
    await client.request('POST', '/1.0/projects', {
      global: true,
      body: { name: project, description: 'Hostcloud instances', config: { 'features.images': 'false', 'features.profiles': 'false', 'features.storage.volumes': 'true' } },
    });
  } catch (e) {
    // Made meanwhile by another worker.
    if (!isConflict(e) && !(e instanceof LxdError && /already exists/i.test(e.message))) throw e;
  }
}

/** GET /1.0: the server answers (with the pinned certificate, over https) and trusts us. */
export async function requireTrusted(client: LxdClient): Promise<LxdServer> {
  const server = await client.get<LxdServer>('/1.0', { global: true });
  if (server.auth !== 'trusted') {
    throw new LxdError(`LXD at ${formatEndpoint(client.endpoint)} does not trust Hostcloud's client certificate yet: trust it on that server (hostcloud admin nodes add prints the command)`, 403, false);
  }
  return server;
}

/**
 * GET /1.0 and the node's resources: what adding a node pins and records. A cluster is one node:
 * its sizes are the sum of its members' (each member's /1.0/resources and pool, asked with
 * ?target=), since LXD places each instance on one of them.
 */
export async function inspectServer(client: LxdClient, storagePool: string): Promise<NodeFacts> {
  const server = await requireTrusted(client);
  const members = server.environment?.server_clustered
    ? (await client.get<{ server_name: string; status: string }[]>('/1.0/cluster/members', { global: true, query: { recursion: 1 } }))
      .filter((m) => m.status === 'Online').map((m) => m.server_name)
    : [undefined];
  let cpuCores = 0;
  let ramMb = 0;
  let storageGb = 0;
  let vendorName = '';
  for (const target of members) {
    const resources = await client.get<LxdResources>('/1.0/resources', { global: true, query: { target } });
    cpuCores += resources.cpu.total;
    ramMb += Math.floor(resources.memory.total / 1024 ** 2);
    vendorName ||= resources.cpu.sockets?.[0]?.vendor ?? '';
    try {
      const pool = await client.get<LxdStoragePoolResources>(`/1.0/storage-pools/${encodeURIComponent(storagePool)}/resources`, { global: true, query: { target } });
      storageGb += Math.floor(pool.space.total / 1024 ** 3);
    } catch (e) {
      if (!(e instanceof LxdError) || e.status !== 404) throw e;
      throw new LxdError(`LXD at ${formatEndpoint(client.endpoint)} has no storage pool "${storagePool}" (LXD_STORAGE_POOL)${target ? ` on member ${target}` : ''}`, 404, false);
    }
  }
  const cpuVendor = /intel/i.test(vendorName) ? 'intel' : /amd/i.test(vendorName) ? 'amd' : null;
  return { fingerprint: client.endpoint.kind === 'https' ? client.seenFingerprint : null, cpuCores, ramMb, storageGb, cpuVendor };
}
