// The instance-level steps of the driver, each one LXD call or operation: reading an instance,
// power changes, commands through the exec API, files through the file API, and the routed NIC
// that carries the machine's addresses.
import type { PowerState } from '../../../db/schema.ts';
import type { Devices, LxdInstance, LxdInstanceState, LxdOperation } from './api-types.ts';
import { type LxdClient, LxdError, isNotFound } from './client.ts';

export const path = (name: string) => `/1.0/instances/${encodeURIComponent(name)}`;

/** LXD's status as our power state. */
export function powerOf(status: string): PowerState {
  switch (status) {
    case 'Running': return 'running';
    case 'Stopped': return 'stopped';
    case 'Frozen': return 'stopped';
    case 'Starting': return 'starting';
    case 'Stopping': return 'stopping';
    case 'Error': return 'error';
    default: return 'unknown';
  }
}

export async function findInstance(client: LxdClient, name: string): Promise<LxdInstance | null> {
  try {
    return await client.get<LxdInstance>(path(name));
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
}

export function instanceState(client: LxdClient, name: string, timeoutMs?: number): Promise<LxdInstanceState> {
  return client.get<LxdInstanceState>(`${path(name)}/state`, { timeoutMs });
}

/**
 * Brings the instance to `running` or `stopped` (a reboot restarts it). Asking for the state it is
 * in does nothing, so a retried call is harmless. A stop is clean first (the guest's init gets
 * LXD's stop signal); one that takes longer than `graceS` is forced.
 */
export async function setPower(client: LxdClient, name: string, action: 'start' | 'stop' | 'restart', graceS = 30): Promise<PowerState> {
  const state = await instanceState(client, name);
  if (action === 'start' && state.status === 'Running') return 'running';
  if (action === 'stop' && state.status === 'Stopped') return 'stopped';
  if (action === 'restart' && state.status !== 'Running') action = 'start';
  if (action === 'start') {
    await client.request('PUT', `${path(name)}/state`, { body: { action: 'start', timeout: graceS } });
    return 'running';
  }
  try {
    await client.request('PUT', `${path(name)}/state`, { body: { action, timeout: graceS, force: false } });
  } catch (e) {
    if (!(e instanceof LxdError) || e.status === null) throw e;
    // A guest that ignores the signal: forced, as a power button held down.
    await client.request('PUT', `${path(name)}/state`, { body: { action, timeout: graceS, force: true } });
  }
  return action === 'stop' ? 'stopped' : 'running';
}

/** Stops at once (the instance is about to be deleted or moved); a stopped one is left as is. */
export async function forceStop(client: LxdClient, name: string): Promise<void> {
  try {
    const state = await instanceState(client, name);
    if (state.status === 'Stopped') return;
    await client.request('PUT', `${path(name)}/state`, { body: { action: 'stop', timeout: 30, force: true } });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/** Deletes an instance (stopping it first); one that is not there is fine. */
export async function deleteInstance(client: LxdClient, name: string): Promise<void> {
  await forceStop(client, name);
  try {
    await client.request('DELETE', path(name));
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/**
 * Runs a command inside the instance and waits for it (no terminal, output recorded). Secrets go
 * in `environment`, never in the command line. A non-zero exit is a final error naming its stderr.
 */
export async function exec(client: LxdClient, name: string, command: string[], environment: Record<string, string> = {}): Promise<string> {
  const op = await client.request<LxdOperation>('POST', `${path(name)}/exec`, {
    body: { command, environment, 'wait-for-websocket': false, interactive: false, 'record-output': true },
  });
  const meta = (op.metadata ?? {}) as { return?: number; output?: Record<string, string> };
  if (meta.return !== 0) {
    const stderr = (await readLog(client, meta.output?.['2'])).trim();
    throw new LxdError(`${command[0]} inside ${name} exited with ${meta.return ?? '?'}${stderr ? `: ${stderr.slice(0, 200)}` : ''}`, null, false);
  }
  return readLog(client, meta.output?.['1']);
}

/** An exec log file (raw text, not JSON). */
async function readLog(client: LxdClient, logPath: string | undefined): Promise<string> {
  if (!logPath) return '';
  const m = /^\/1\.0\/instances\/([^/]+)\/logs\/(.+)$/.exec(logPath.split('?')[0]!);
  if (!m) return '';
  const buf = await client.readLog(decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)).catch(() => null);
  return buf?.toString('utf8') ?? '';
}

/** Sets root's password with the guest's own chpasswd (the password travels in the environment). */
export async function setRootPassword(client: LxdClient, name: string, password: string): Promise<void> {
  await exec(client, name, ['/bin/sh', '-c', 'printf "root:%s\\n" "$HC_PASSWORD" | chpasswd'], { HC_PASSWORD: password });
}

/** Writes root's authorized_keys (0600 in a 0700 ~/.ssh). */
export async function installSshKeys(client: LxdClient, name: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await client.writeFile(name, '/root/.ssh', null, { mode: 0o700, type: 'directory' });
  await client.writeFile(name, '/root/.ssh/authorized_keys', `${keys.join('\n')}\n`, { mode: 0o600 });
}

export interface Address {
  address: string;
  version: 4 | 6;
}

/** The routed NIC `eth0` with these addresses (LXD configures them inside the instance at start). */
export function nicDevice(addresses: Address[]): Record<string, string> {
  const v4 = addresses.filter((a) => a.version === 4).map((a) => a.address);
  const v6 = addresses.filter((a) => a.version === 6).map((a) => a.address);
  return {
    type: 'nic', nictype: 'routed', name: 'eth0',
    ...(v4.length ? { 'ipv4.address': v4.join(',') } : {}),
    ...(v6.length ? { 'ipv6.address': v6.join(',') } : {}),
  };
}

/** The writable part of an instance, for a PUT that changes some of it. */
export function writable(inst: LxdInstance): { config: Record<string, string>; devices: Devices; profiles: string[]; description?: string } {
  return { config: inst.config, devices: inst.devices, profiles: inst.profiles };
}

/**
 * Gives the instance exactly these addresses: the NIC device (what LXD sets up at every start) and,
 * on a running container, the addresses inside it now (LXD applies a routed NIC's addresses only
 * when the instance starts).
 */
export async function applyAddresses(client: LxdClient, name: string, addresses: Address[]): Promise<void> {
  const inst = await findInstance(client, name);
  if (!inst) throw new LxdError(`Instance ${name} does not exist`, 404, false);
  const before = nicAddresses(inst.devices.eth0);
  const body = writable(inst);
  body.devices = { ...inst.devices, eth0: nicDevice(addresses) };
  await client.request('PUT', path(name), { body });
  if (inst.type !== 'container' || inst.status !== 'Running') return;
  const wanted = new Set(addresses.map((a) => a.address));
  const script: string[] = [];
  for (const a of addresses) if (!before.has(a.address)) script.push(`ip addr add ${a.address}/${a.version === 4 ? 32 : 128} dev eth0 || true`);
  for (const a of before) if (!wanted.has(a)) script.push(`ip addr del ${a}/${a.includes(':') ? 128 : 32} dev eth0 || true`);
  if (script.length) await exec(client, name, ['/bin/sh', '-c', script.join('; ')]);
}

function nicAddresses(dev: Record<string, string> | undefined): Set<string> {
  const list = [dev?.['ipv4.address'], dev?.['ipv6.address']].filter(Boolean).join(',');
  return new Set(list.split(',').map((s) => s.trim()).filter(Boolean));
}
