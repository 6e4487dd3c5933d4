// A cold move of a stopped instance between two LXD servers with LXD's migration API, as `lxc move`
// does it: the target creates the instance from a migration source while the source sends its
// disk and snapshots; then the source's copy is deleted. One side must be reachable over https by
// the other: push when the target has an https endpoint (the source connects to it), else pull
// from an https source. Live (stateful) moves need CRIU on both ends; see supportsLive. Within one
// node that is an LXD cluster, the cluster moves the instance between its members itself.
import type { LxdInstance, LxdOperation, LxdServer } from './api-types.ts';
import { type LxdClient, LxdError } from './client.ts';
import { deleteInstance, findInstance, path } from './instance.ts';
import { formatEndpoint } from './transport.ts';

/** The instance's config as a copy should carry it: its own keys and the idmap state of its disk. */
export function portableConfig(config: Record<string, string>): Record<string, string> {
  const keep = (k: string) => !k.startsWith('volatile.') || k === 'volatile.base_image' || k.startsWith('volatile.idmap.') || k === 'volatile.last_state.idmap';
  return Object.fromEntries(Object.entries(config).filter(([k]) => keep(k)));
}

async function certificateOf(client: LxdClient): Promise<string> {
  const server = await client.get<LxdServer>('/1.0', { global: true });
  const cert = server.environment?.certificate;
  if (!cert) throw new LxdError(`LXD at ${formatEndpoint(client.endpoint)} did not tell its certificate`, null, true);
  return cert;
}

const operationUrl = (client: LxdClient, id: string) => `${formatEndpoint(client.endpoint)}/1.0/operations/${encodeURIComponent(id)}`;

/**
 * Sends what `sourcePath` names on `source` (an instance, or an instance's snapshot) to `target`,
 * where it becomes the instance `create` describes (its name, type, config, devices, profiles).
 */
async function transfer(source: LxdClient, target: LxdClient, sourcePath: string, create: Record<string, unknown>, instanceOnly: boolean): Promise<void> {
  const sourceName = sourcePath.split('/').pop()!;
  if (target.endpoint.kind === 'https') {
    const sink = await target.request<LxdOperation>('POST', '/1.0/instances', {
      body: { ...create, source: { type: 'migration', mode: 'push', live: false, instance_only: instanceOnly } }, wait: false,
    });
    const send = await source.request<LxdOperation>('POST', sourcePath, {
      body: { name: sourceName, migration: true, live: false, instance_only: instanceOnly, target: { certificate: await certificateOf(target), operation: operationUrl(target, sink.id), secrets: sink.metadata } },
      wait: false,
    });
    await Promise.all([source.wait(send.id), target.wait(sink.id)]);
  } else if (source.endpoint.kind === 'https') {
    const send = await source.request<LxdOperation>('POST', sourcePath, { body: { name: sourceName, migration: true, live: false, instance_only: instanceOnly }, wait: false });
    const certificate = await certificateOf(source);
    await target.request('POST', '/1.0/instances', {
      body: { ...create, source: { type: 'migration', mode: 'pull', operation: operationUrl(source, send.id), certificate, secrets: send.metadata, live: false, instance_only: instanceOnly } },
    });
    await source.wait(send.id).catch(() => {});
  } else {
    throw new LxdError(`Cannot copy between two nodes reached over unix sockets: give one of them an https endpoint (core.https_address)`, null, false);
  }
}

/** Moves `name` (stopped) from `source` to `target`; a move that already happened is done. */
export async function moveInstance(source: LxdClient, target: LxdClient, name: string): Promise<void> {
  const [src, existing] = await Promise.all([findInstance(source, name), findInstance(target, name)]);
  if (!src && existing) return;
  if (!src) throw new LxdError(`Instance ${name} is on neither node`, 404, false);
  if (src.status !== 'Stopped') throw new LxdError(`Instance ${name} is running; stop it before a cold migration`, null, false);
  // A copy left by an attempt that failed half-way is not trusted: it is made again.
  if (existing) await deleteInstance(target, name);
  const create = {
    name, type: src.type, architecture: (src as LxdInstance & { architecture?: string }).architecture,
    config: portableConfig(src.config), devices: src.devices, profiles: src.profiles,
  };
  try {
    await transfer(source, target, path(name), create, false);
  } catch (e) {
    await deleteInstance(target, name).catch(() => {});
    throw e;
  }
  const moved = await findInstance(target, name);
  if (!moved) throw new LxdError(`The move of ${name} ended without the instance on the target`, null, true);
  await deleteInstance(source, name);
}

/**
 * A new instance `name` on `target` from a snapshot of an instance on another server (a clone
 * placed elsewhere): the snapshot's disk, with the new instance's own config and devices.
 */
export async function copySnapshotAcross(source: LxdClient, target: LxdClient, from: { instance: string; snapshot: string }, create: {
  name: string; type: string; config: Record<string, string>; devices: Record<string, Record<string, string>>; profiles: string[];
}): Promise<void> {
  const src = await findInstance(source, from.instance);
  if (!src) throw new LxdError(`Instance ${from.instance} is not on its node`, 404, false);
  try {
    await transfer(source, target, `${path(from.instance)}/snapshots/${encodeURIComponent(from.snapshot)}`,
      { ...create, architecture: (src as LxdInstance & { architecture?: string }).architecture }, true);
  } catch (e) {
    await deleteInstance(target, create.name).catch(() => {});
    throw e;
  }
}

/** The members of a clustered server (online or not); [] for a stand-alone one. */
export async function clusterMembers(client: LxdClient): Promise<{ server_name: string; status: string }[]> {
  const server = await client.get<LxdServer>('/1.0', { global: true });
  if (!server.environment?.server_clustered) return [];
  return client.get<{ server_name: string; status: string }[]>('/1.0/cluster/members', { global: true, query: { recursion: 1 } });
}

/**
 * Moves `name` (stopped) to `member` of the cluster `client` speaks to, with the cluster's own move
 * (`lxc move NAME --target MEMBER`): POST /1.0/instances/NAME?target=MEMBER {migration: true}. An
 * instance already on that member (a repeated run) is done.
 */
export async function moveToMember(client: LxdClient, name: string, member: string): Promise<void> {
  const members = await clusterMembers(client);
  if (members.length === 0) throw new LxdError(`LXD at ${formatEndpoint(client.endpoint)} is not a cluster: it has no member ${member}`, 400, false);
  if (!members.some((m) => m.server_name === member)) {
    throw new LxdError(`The cluster at ${formatEndpoint(client.endpoint)} has no member ${member} (members: ${members.map((m) => m.server_name).join(', ')})`, 404, false);
  }
  const inst = await findInstance(client, name);
  if (!inst) throw new LxdError(`Instance ${name} does not exist`, 404, false);
  if (inst.location === member) return;
  if (inst.status !== 'Stopped') throw new LxdError(`Instance ${name} is running; stop it before a cold migration`, null, false);
  await client.request('POST', path(name), { query: { target: member }, body: { name, migration: true, live: false } });
  const moved = await findInstance(client, name);
  if (moved?.location !== member) throw new LxdError(`The move of ${name} to ${member} ended with it on ${moved?.location ?? 'no member'}`, null, true);
}
