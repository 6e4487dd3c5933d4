// The LXD compute driver (COMPUTE_DRIVER=lxd): servers and VDC VMs are LXD instances, each node an
// LXD server (nodes.ts). The machine's record — its id (the instance's name), request token, node,
// sizes, addresses, firewall, console tickets, finished requests — is kept by the same bookkeeping
// as the simulated platform (run with no delay): it makes a retried request find the first one's
// results and hands out the location's addresses. Everything that happens to a machine happens in
// LXD as well, through its REST API: the record says what should be, the instance is what is.
//
// Instance config: limits.cpu, limits.memory, user.hostcloud.id (our id), user.hostcloud.token (the
// create's request token) and cloud-init.user-data; devices: the root disk with its size and a
// routed NIC eth0 holding the machine's addresses.
import type { Db } from '../../../db/connection.ts';
import { findOsImage } from '../../../db/queries/lxd.ts';
import { claimConsoleAttach } from '../../../db/queries/console-sessions.ts';
import { listVmLeases } from '../../../db/queries/ip-pools.ts';
import { findSnapshot, findVm } from '../../../db/queries/sim.ts';
import type { SimVm } from '../../../db/schema.ts';
import { createSimulatedCompute } from '../simulated/index.ts';
import type { ComputeProvider, CreateRequest, Machine, Progress } from '../types.ts';
import { ProviderError } from '../types.ts';
import { WrongPlatformError } from '../../errors.ts';
import { requireServedNode } from '../platform.ts';
import type { LxdInstance } from './api-types.ts';
import { type LxdClient, LxdError, isConflict, isNotFound } from './client.ts';
import {
  applyAddresses, deleteInstance, findInstance, forceStop, installSshKeys, instanceState, nicDevice, path, powerOf, setPower, setRootPassword, writable,
} from './instance.ts';
import { attachInstanceConsole } from './console.ts';
import { copySnapshotAcross, moveInstance, moveToMember } from './migrate.ts';
import { LxdClient as Client } from './client.ts';
import { NodeClients, inspectServer, requireTrusted } from './nodes.ts';
import type { ClientCertificate } from './transport.ts';

export interface LxdComputeOptions {
  db: Db;
  project: string;
  instanceType: 'container' | 'virtual-machine';
  storagePool: string;
  certificate: () => Promise<ClientCertificate>;
  /** Per-request timeout of LXD calls (ms). */
  timeoutMs?: number;
}

const quiet: Progress = async () => {};

/** Tries of a destroy while the node does not answer: about 30 s in all. */
const DESTROY_ATTEMPTS = 7;

/** A user's line of /etc/shadow, or null. */
const shadowEntry = (shadow: string, user: string) => shadow.split('\n').find((l) => l.startsWith(`${user}:`)) ?? null;

/** /etc/shadow with the entry's user line replaced (or added). */
function withShadowEntry(shadow: string, entry: string): string {
  const user = entry.slice(0, entry.indexOf(':') + 1);
  const lines = shadow.split('\n').filter((l) => l !== '');
  const i = lines.findIndex((l) => l.startsWith(user));
  if (i >= 0) lines[i] = entry;
  else lines.unshift(entry);
  return `${lines.join('\n')}\n`;
}

/** An image reference: a fingerprint (hex) or an alias. */
const imageSource = (image: string) => (/^[0-9a-f]{12,64}$/.test(image) ? { type: 'image', fingerprint: image } : { type: 'image', alias: image });

export function createLxdCompute(opts: LxdComputeOptions): ComputeProvider & { close(): void; clients: NodeClients } {
  const { db } = opts;
  const records = createSimulatedCompute({ db, delayMs: 0, anyNode: true });
  const clients = new NodeClients({ db, project: opts.project, certificate: opts.certificate, timeoutMs: opts.timeoutMs });

  /** The machine's record and the client of the node it is on; final errors when it is gone. */
  const locate = async (ref: string): Promise<{ vm: SimVm; client: LxdClient }> => {
    const vm = await findVm(db, ref);
    if (!vm || vm.destroyed_at) throw new ProviderError('UPSTREAM_ERROR', `Machine ${ref} does not exist`, false);
    return { vm, client: await clients.of(vm.node) };
  };

  const addressesOf = async (ref: string) => (await listVmLeases(db, ref)).map((l) => ({ address: l.address, version: l.version }));

  const config = (req: Pick<CreateRequest, 'cpuCores' | 'ramMb' | 'token' | 'resourceId' | 'userData'>, extra: Record<string, string> = {}) => ({
    'limits.cpu': String(req.cpuCores),
    'limits.memory': `${req.ramMb}MiB`,
    'user.hostcloud.token': req.token,
    ...(req.resourceId ? { 'user.hostcloud.id': req.resourceId } : {}),
    ...(req.userData ? { 'cloud-init.user-data': req.userData } : {}),
    ...extra,
  });
  const rootDisk = (storageGb: number) => ({ type: 'disk', path: '/', pool: opts.storagePool, size: `${storageGb}GiB` });

  /** The instance of a create, made (or found, for a retry) and started. */
  const build = async (client: LxdClient, name: string, req: CreateRequest, addresses: { address: string; version: 4 | 6 }[]): Promise<{ made: boolean }> => {
    const existing = await findInstance(client, name);
    if (existing) {
      if (existing.config['user.hostcloud.token'] !== req.token) {
        throw new LxdError(`Instance ${name} exists on the node but belongs to another request`, 409, false);
      }
      if (existing.status !== 'Running') await setPower(client, name, 'start');
      return { made: false };
    }
    const devices = { root: rootDisk(req.storageGb), eth0: nicDevice(addresses) };
    if (req.fromSnapshotRef) {
      const snap = await findSnapshot(db, req.fromSnapshotRef);
      const from = snap ? await findVm(db, snap.vm_id) : undefined;
      if (!snap || !from) throw new ProviderError('UPSTREAM_ERROR', `Snapshot ${req.fromSnapshotRef} does not exist`, false);
      if (from.node !== req.node) {
        // Placed on another LXD server than the snapshot: sent there with LXD's migration API.
        await copySnapshotAcross(await clients.of(from.node), client, { instance: from.id, snapshot: snap.id }, {
          name, type: opts.instanceType, config: config(req), devices, profiles: ['default'],
        });
        await setPower(client, name, 'start');
        return { made: true };
      }
      await client.request('POST', '/1.0/instances', {
        body: {
          name, type: opts.instanceType, source: { type: 'copy', source: `${from.id}/${snap.id}`, instance_only: true },
          // The copy's own identity, sizes and addresses; the rest comes from the snapshot.
          config: config(req), devices,
        },
      });
    } else {
      const image = req.osSlug ? await findOsImage(db, req.osSlug) : null;
      if (!image) {
        throw new LxdError(`OS ${req.osSlug ?? '(none)'} has no LXD image: set one with PATCH /admin/v1/operating-systems/{id} {"image"}`, null, false);
      }
      await client.request('POST', '/1.0/instances', {
        body: { name, type: opts.instanceType, source: imageSource(image), profiles: ['default'], config: config(req), devices },
      });
    }
    await setPower(client, name, 'start');
    return { made: true };
  };

  const driver: ComputeProvider & { close(): void; clients: NodeClients } = {
    capabilities: { liveMigration: false, osImages: true, endpointNodes: true, clusterMembers: true },
    clients,

    close() {
      clients.close();
    },

    async inspectNode(endpoint, fingerprint, timeoutMs) {
      const https = endpoint.startsWith('https:');
      const client = new Client({ endpoint, fingerprint, project: null, client: https ? await opts.certificate() : null, timeoutMs });
      try {
        return await inspectServer(client, opts.storagePool);
      } finally {
        client.close();
      }
    },

    async probeNode(endpoint, fingerprint, timeoutMs) {
      const https = endpoint.startsWith('https:');
      const client = new Client({ endpoint, fingerprint, project: null, client: https ? await opts.certificate() : null, timeoutMs });
      try {
        await requireTrusted(client);
      } finally {
        client.close();
      }
    },

    async clientCertificate() {
      return (await opts.certificate()).cert;
    },

    async create(req, progress) {
      // The node first: one this driver cannot serve (platform.ts) is refused before anything is recorded.
      const client = await clients.of(req.node);
      await progress(10, 'Allocating addresses');
      const machine = await records.create(req, quiet);
      const addresses = [
        ...(machine.network.ipv4 ? [{ address: machine.network.ipv4.address, version: 4 as const }] : []),
        ...(machine.network.ipv6 ? [{ address: machine.network.ipv6.address, version: 6 as const }] : []),
        ...machine.extraIps,
      ];
      await progress(30, req.fromSnapshotRef ? 'Copying the snapshot' : 'Creating the instance from its image');
      let made = false;
      try {
        made = (await build(client, machine.ref, req, addresses)).made;
        await progress(80, 'Setting the root password and SSH keys');
        if (req.password) await setRootPassword(client, machine.ref, req.password);
        await installSshKeys(client, machine.ref, req.sshKeys ?? []);
      } catch (e) {
        // A create that fails leaves nothing on the node: what this attempt made goes (a retry makes it again).
        if (made || !(e instanceof LxdError && e.status === 409)) await deleteInstance(client, machine.ref).catch(() => {});
        throw e;
      }
      return machine;
    },

    async findMachine(token) {
      return records.findMachine(token);
    },

    async destroy(ref, token) {
      const vm = await findVm(db, ref);
      if (!vm || vm.destroyed_at) return;
      // An unreachable node is waited for a while: this is also how a failed create is undone
      // (after its refund, with no retry of its own), and a daemon restart takes seconds.
      for (let attempt = 1; ; attempt++) {
        try {
          await deleteInstance(await clients.of(vm.node), ref);
          break;
        } catch (e) {
          if (!(e instanceof LxdError && e.status === null && e.retryable) || attempt >= DESTROY_ATTEMPTS) throw e;
          await new Promise((r) => setTimeout(r, Math.min(8_000, 500 * 2 ** (attempt - 1))));
        }
      }
      await records.destroy(ref, token);
    },

    async power(ref, action, token, progress) {
      const { client } = await locate(ref);
      await progress(50, action === 'start' ? 'Starting' : action === 'stop' ? 'Shutting down' : 'Rebooting');
      const power = await setPower(client, ref, action === 'reboot' ? 'restart' : action);
      await records.power(ref, action, token, quiet);
      return power;
    },

    async resetPassword(ref, password, token, progress) {
      const { client } = await locate(ref);
      const state = await instanceState(client, ref);
      if (state.status !== 'Running') throw new LxdError(`Machine ${ref} is stopped: start it to set its password`, null, false);
      await progress(50, 'Setting the root password');
      await setRootPassword(client, ref, password);
      await records.resetPassword(ref, password, token, quiet);
    },

    async reinstall(ref, osSlug, password, token, progress) {
      const { vm, client } = await locate(ref);
      const image = await findOsImage(db, osSlug);
      if (!image) throw new LxdError(`OS ${osSlug} has no LXD image: set one with PATCH /admin/v1/operating-systems/{id} {"image"}`, null, false);
      // LXD 5.0 cannot rebuild in place: the instance is made again from the new image under the
      // same name, with the same config (identity, sizes, user data) and devices (disk, addresses).
      const inst = await findInstance(client, ref);
      // No new password: root keeps the one it has (its shadow entry is carried over).
      let rootEntry: string | null = null;
      if (!inst || inst.config['user.hostcloud.reinstall'] !== token) {
        if (inst && password === null) rootEntry = shadowEntry((await client.readFile(ref, '/etc/shadow'))?.toString('utf8') ?? '', 'root');
        await progress(20, 'Removing the old system');
        const keep = inst ? writable(inst) : {
          config: config({ cpuCores: vm.cpu_cores, ramMb: vm.ram_mb, token: vm.request_token }),
          devices: { root: rootDisk(vm.storage_gb), eth0: nicDevice(await addressesOf(ref)) }, profiles: ['default'],
        };
        const kept = Object.fromEntries(Object.entries(keep.config).filter(([k]) => !k.startsWith('volatile.') && !k.startsWith('image.')));
        if (inst) await deleteInstance(client, ref);
        await progress(50, 'Writing the image');
        await client.request('POST', '/1.0/instances', {
          body: {
            name: ref, type: inst?.type ?? opts.instanceType, source: imageSource(image), profiles: keep.profiles,
            config: { ...kept, 'user.hostcloud.reinstall': token }, devices: keep.devices,
          },
        });
      }
      await progress(80, 'Booting');
      await setPower(client, ref, 'start');
      if (password) await setRootPassword(client, ref, password);
      else if (rootEntry) {
        const shadow = (await client.readFile(ref, '/etc/shadow'))?.toString('utf8') ?? '';
        await client.writeFile(ref, '/etc/shadow', withShadowEntry(shadow, rootEntry), { mode: 0o600 });
      }
      await installSshKeys(client, ref, vm.ssh_keys);
      await records.reinstall(ref, osSlug, password, token, quiet);
    },

    async resize(ref, spec, token, progress) {
      const { client } = await locate(ref);
      const inst = await findInstance(client, ref);
      if (!inst) throw new LxdError(`Instance ${ref} does not exist`, 404, false);
      await progress(50, 'Resizing');
      const body = writable(inst);
      body.config = { ...inst.config, 'limits.cpu': String(spec.cpuCores), 'limits.memory': `${spec.ramMb}MiB` };
      const root = inst.devices.root ?? rootDisk(spec.storageGb);
      body.devices = { ...inst.devices, root: { ...root, size: `${spec.storageGb}GiB` } };
      await client.request('PUT', path(ref), { body });
      await records.resize(ref, spec, token, quiet);
    },

    async snapshot(ref, token, progress) {
      const { client } = await locate(ref);
      const snap = await records.snapshot(ref, token, quiet);
      await progress(50, 'Taking the snapshot');
      try {
        await client.request('POST', `${path(ref)}/snapshots`, { body: { name: snap.ref, stateful: false } });
      } catch (e) {
        if (!isConflict(e) && !(e instanceof LxdError && /already exists/i.test(e.message))) throw e;
      }
      return snap;
    },

    async restoreSnapshot(ref, snapshotRef, token, progress) {
      const { client } = await locate(ref);
      const inst = await findInstance(client, ref);
      if (!inst) throw new LxdError(`Instance ${ref} does not exist`, 404, false);
      await progress(30, 'Restoring the disk');
      await forceStop(client, ref);
      try {
        await client.request('PUT', path(ref), { body: { restore: snapshotRef } });
      } catch (e) {
        if (isNotFound(e)) throw new LxdError(`Snapshot ${snapshotRef} of machine ${ref} does not exist`, 404, false);
        throw e;
      }
      await progress(80, 'Booting');
      await setPower(client, ref, 'start');
      await records.restoreSnapshot(ref, snapshotRef, token, quiet);
    },

    async deleteSnapshot(snapshotRef) {
      const snap = await findSnapshot(db, snapshotRef);
      if (snap) {
        const vm = await findVm(db, snap.vm_id);
        if (vm && !vm.destroyed_at) {
          const client = await clients.of(vm.node);
          try {
            await client.request('DELETE', `${path(vm.id)}/snapshots/${encodeURIComponent(snapshotRef)}`);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
        }
      }
      await records.deleteSnapshot(snapshotRef);
    },

    async status(ref, timeoutMs) {
      const deadline = new Promise<never>((_, reject) => {
        const t = setTimeout(() => reject(new LxdError(`Status of ${ref}: no answer within ${timeoutMs} ms`, null, true)), timeoutMs);
        t.unref();
      });
      return Promise.race([deadline, (async () => {
        const { vm, client } = await locate(ref);
        const state = await instanceState(client, ref, timeoutMs);
        return { power: powerOf(state.status), cpuCores: vm.cpu_cores, ramMb: vm.ram_mb, storageGb: vm.storage_gb, osSlug: vm.os_slug };
      })()]);
    },

    async attachIp(ref, version, token) {
      const { client } = await locate(ref);
      const got = await records.attachIp(ref, version, token);
      await applyAddresses(client, ref, await addressesOf(ref));
      return got;
    },

    async releaseIp(ref, address) {
      const { client } = await locate(ref);
      await records.releaseIp(ref, address);
      await applyAddresses(client, ref, await addressesOf(ref));
    },

    // Reverse DNS and the firewall are our records only: LXD has neither (DNS is the operator's
    // resolver; the firewall rules shown are what the network should enforce). Either driver
    // answers them alike from the same records, so they need no check of the node.
    setReverseDns: (ref, address, hostname) => records.setReverseDns(ref, address, hostname),
    reverseDns: (ref, address) => records.reverseDns(ref, address),
    firewallRules: (ref) => records.firewallRules(ref),
    redeemConsole: (ticket) => records.redeemConsole(ticket),

    async openConsole(ref, ttl) {
      // No link to a console this driver could not attach (a simulated machine's).
      const vm = await findVm(db, ref);
      if (vm && !vm.destroyed_at) requireServedNode('lxd', vm.node, vm.node_endpoint);
      return records.openConsole(ref, ttl);
    },

    async attachConsole(ticket, size) {
      const session = await claimConsoleAttach(db, ticket);
      if (!session) return null;
      // The ticket is spent once claimed, so a blink of LXD (no answer, a 5xx) is retried here
      // rather than costing the customer the link; a refusal (no such instance, not running) is final.
      for (let attempt = 1; ; attempt++) {
        try {
          const { client } = await locate(session.vm_id);
          return await attachInstanceConsole(client, session.vm_id, size);
        } catch (e) {
          if (attempt >= 4 || !(e instanceof ProviderError && e.retryable) || e instanceof WrongPlatformError) throw e;
          await new Promise((r) => setTimeout(r, 400 * attempt));
        }
      }
    },

    async metrics(ref) {
      const { vm, client } = await locate(ref);
      // CPU use is a rate: two readings a quarter second apart.
      const first = await instanceState(client, ref);
      const t0 = process.hrtime.bigint();
      await new Promise((r) => setTimeout(r, 250));
      const second = await instanceState(client, ref);
      const elapsedNs = Number(process.hrtime.bigint() - t0);
      const cpuNs = Math.max(0, second.cpu.usage - first.cpu.usage);
      const pct = (n: number) => Math.max(0, Math.min(100, Math.round(n * 10) / 10));
      const memLimit = vm.ram_mb * 1024 * 1024;
      const diskUsed = second.disk?.root?.usage ?? 0;
      return {
        cpu_pct: pct((cpuNs / elapsedNs / Math.max(1, vm.cpu_cores)) * 100),
        memory_pct: pct((second.memory.usage / memLimit) * 100),
        disk_pct: pct((diskUsed / (vm.storage_gb * 1024 ** 3)) * 100),
        sampled_at: new Date(),
      };
    },

    async traffic(ref, month) {
      const recorded = await records.traffic(ref, month);
      const vm = await findVm(db, ref);
      const current = new Date().toISOString().slice(0, 7) === month;
      if (!vm || vm.destroyed_at || !current) return { ...recorded, in_bytes: 0, out_bytes: 0 };
      // eth0's counters since the instance last started: LXD keeps no history per month.
      const state = await instanceState(await clients.of(vm.node), ref);
      const eth0 = state.network?.eth0?.counters;
      return { month, in_bytes: eth0?.bytes_received ?? 0, out_bytes: eth0?.bytes_sent ?? 0, quota_bytes: recorded.quota_bytes };
    },

    async migrate(ref, target, token, progress): Promise<Machine> {
      if (target.live) throw new LxdError('Live migration is not supported by the LXD driver (it needs CRIU on both ends); use a cold migration', null, false);
      const { vm, client: source } = await locate(ref);
      if (target.member) {
        // Within the node (an LXD cluster): the cluster moves it; node, location and addresses stay.
        if (vm.node !== target.node) throw new LxdError(`A move to member ${target.member} keeps machine ${ref} on its node ${vm.node}, not ${target.node}`, null, false);
        await progress(20, `Moving the instance to cluster member ${target.member}`);
        await moveToMember(source, ref, target.member);
        return records.migrate(ref, target, token, quiet);
      }
      if (vm.node !== target.node) {
        await progress(20, `Copying the instance to ${target.node}`);
        await moveInstance(source, await clients.of(target.node), ref);
      }
      await progress(80, `Defining the machine on ${target.node}`);
      const machine = await records.migrate(ref, target, token, quiet);
      if (target.locationId !== vm.location_id) await applyAddresses(await clients.of(target.node), ref, await addressesOf(ref));
      return machine;
    },
  };
  return driver;
}

export type LxdCompute = ReturnType<typeof createLxdCompute>;
export type { LxdInstance };
