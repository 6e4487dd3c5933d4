// The simulated virtualization platform: the default ComputeProvider. It behaves like a real one —
// every step takes `delayMs`, state lives in our database (sim_* tables, so it survives restarts
// and is shared by every worker), addresses come from the core's per-location pools, retried requests are
// answered from the record of the first, and the fault switch makes it fail on demand.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/connection.ts';
import {
  type CreatedVm, advanceVmPowerAndListLeases, createVm, deleteSnapshotRow, findRequest, findSnapshot, findVm, findVmByToken, insertRequest,
  insertSnapshot, listFirewallRules, markVmDestroyed, skipCommitFlush, updateVm,
} from '../../../db/queries/sim.ts';
import { claimConsoleAttach, insertConsoleSession, redeemConsoleSession } from '../../../db/queries/console-sessions.ts';
import { listVmLeases, releaseAllLeases, releaseLease } from '../../../db/queries/ip-pools.ts';
import type { SimVm } from '../../../db/schema.ts';
import { findLxdNode } from '../../../db/queries/lxd.ts';
import { clearSimReverseDns, findSimReverseDns, setSimReverseDns } from '../../../db/queries/reverse-dns.ts';
import { failAs, obeyFault, sleep, withDeadline } from '../../simulated/fault.ts';
import { consumeStatusFaultAndFindVm } from '../../../db/queries/sim-faults.ts';
import { type ComputeCall, type ComputeProvider, type CreateRequest, type FirewallRule, type Progress, ProviderError } from '../types.ts';
import { WrongPlatformError } from '../../errors.ts';
import { requireServedNode } from '../platform.ts';
import { leaseAddresses } from './allocate.ts';
import { simulatedShell } from './shell.ts';
import { parseAddress } from '../../../core/ip-pools/ip-math.ts';
import { machineOf } from './machine.ts';
import { defaultFirewall } from '../../../db/default-firewall.ts';
import { metricsOf, monthBounds, trafficOf } from './telemetry.ts';

export interface SimulatedComputeOptions {
  db: Db;
  /** Wait of each step (SIM_DELAY_MS); 0 answers at once. */
  delayMs: number;
  /** The clock of metrics and traffic; defaults to the system clock. */
  now?: () => Date;
  /**
   * Keep the records of machines on any node: the LXD driver's bookkeeping, which checks the node
   * itself. Otherwise (the simulated platform) a machine on a node with an endpoint, an LXD
   * server, is refused (platform.ts): its records must not change without its instance.
   */
  anyNode?: boolean;
}

/** Thrown inside a transaction to undo it when a concurrent twin already recorded the same request. */
class Replay extends Error {}

const newId = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;

export function createSimulatedCompute({ db, delayMs, now = () => new Date(), anyNode = false }: SimulatedComputeOptions): ComputeProvider {
  const serves = (vm: { node: string | null; node_endpoint: string | null }) => {
    if (!anyNode) requireServedNode('simulated', vm.node, vm.node_endpoint);
  };
  const step = async (progress: Progress, pct: number, detail: string) => {
    await progress(pct, detail);
    await sleep(delayMs);
  };
  const fault = (call: ComputeCall) => obeyFault(db, 'compute', call, delayMs);

  /** The address in normal form, if the live machine holds it (primary or leased); else a final failure. */
  const heldAddress = async (ref: string, address: string): Promise<string> => {
    const vm = await liveVm(ref);
    const normal = parseAddress(address)?.addr.toString() ?? address;
    if (normal === vm.ipv4 || normal === vm.ipv6) return normal;
    const leases = await listVmLeases(db, ref);
    if (leases.some((l) => l.address === normal)) return normal;
    throw new ProviderError('UPSTREAM_ERROR', `${address} is not an address of ${ref}`, false);
  };

  /** The machine, unless it never existed or was destroyed — then no retry can help. */
  const liveVm = async (ref: string): Promise<SimVm> => {
    const vm = await findVm(db, ref);
    if (!vm || vm.destroyed_at) throw new ProviderError('UPSTREAM_ERROR', `Machine ${ref} does not exist`, false);
    serves(vm);
    return vm;
  };

  /**
   * Does `work` once per (verb, token): a repeated request gets the first one's result. The work and
   * its record commit together, so a crash between them leaves neither.
   */
  const once = async <R>(verb: string, token: string, work: (trx: Db) => Promise<R>): Promise<R> => {
    const key = `${verb}:${token}`;
    const done = await findRequest(db, key);
    if (done) return done.result as R;
    try {
      return await db.transaction().execute(async (trx) => {
        await skipCommitFlush(trx);
        const result = await work(trx);
        if (!(await insertRequest(trx, key, result))) throw new Replay();
        return result;
      });
    } catch (e) {
      if (!(e instanceof Replay)) throw e;
      return (await findRequest(db, key))!.result as R;
    }
  };

  /**
   * The fault switch, then the machine row with its firewall and addresses, in one statement (a
   * create is the worker's hottest call); an existing machine of the token wins.
   */
  const provision = async (req: CreateRequest): Promise<CreatedVm> => {
    const made = await createVm(db, {
      id: newId('vm'), request_token: req.token, location_id: req.locationId, hostname: req.hostname, power: 'provisioning',
      cpu_cores: req.cpuCores, ram_mb: req.ramMb, storage_gb: req.storageGb, os_slug: req.osSlug, ssh_keys: req.sshKeys ?? [], node: req.node ?? null,
    }, defaultFirewall(req.ipv6), { v4: 1 + req.extraIpv4, v6: (req.ipv6 ? 1 : 0) + req.extraIpv6, primaryV6: req.ipv6 }, !anyNode);
    if ('lxdNode' in made) throw new WrongPlatformError('simulated', made.lxdNode);
    if ('shortfall' in made) throw new ProviderError('CAPACITY_UNAVAILABLE', made.shortfall, false);
    if (made.fault !== null) {
      await failAs('compute', 'create', made.fault, delayMs);
      throw new Error('unreachable: a fault mode always fails the call');
    }
    return made.vm;
  };

  return {
    async create(req, progress) {
      if (req.fromSnapshotRef && !(await findSnapshot(db, req.fromSnapshotRef))) {
        throw new ProviderError('UPSTREAM_ERROR', `Snapshot ${req.fromSnapshotRef} does not exist`, false);
      }
      await step(progress, 10, 'Allocating addresses');
      const vm = await provision(req);
      if (vm.destroyed_at) throw new ProviderError('UPSTREAM_ERROR', `The machine of request ${req.token} was destroyed`, false);
      // A retry after a crash resumes here: the machine exists, only the remaining steps run.
      const booting = vm.power === 'provisioning';
      if (booting) {
        await step(progress, 40, req.fromSnapshotRef ? 'Restoring snapshot' : 'Cloning image');
        await step(progress, 80, 'Booting');
        await step(progress, 95, 'Configuring network');
      }
      return machineOf(vm, await advanceVmPowerAndListLeases(db, vm.id, booting ? { from: 'provisioning', to: 'running' } : null));
    },

    async findMachine(token) {
      await fault('findMachine');
      const vm = await findVmByToken(db, token);
      return vm && !vm.destroyed_at ? vm.id : null;
    },

    async destroy(ref) {
      await fault('destroy');
      const vm = await findVm(db, ref);
      if (!vm || vm.destroyed_at) return;
      serves(vm);
      await sleep(delayMs);
      await db.transaction().execute(async (trx) => {
        await releaseAllLeases(trx, ref);
        await clearSimReverseDns(trx, ref);
        await markVmDestroyed(trx, ref);
      });
    },

    async power(ref, action, token, progress) {
      await fault('power');
      await liveVm(ref);
      const key = `power-${action}`;
      if (!(await findRequest(db, `${key}:${token}`))) {
        if (action !== 'start') await step(progress, action === 'reboot' ? 30 : 50, 'Shutting down');
        if (action !== 'stop') await step(progress, action === 'reboot' ? 70 : 50, 'Starting');
      }
      const power = action === 'stop' ? 'stopped' as const : 'running' as const;
      return once(key, token, async (trx) => {
        await updateVm(trx, ref, { power });
        return power;
      });
    },

    async resetPassword(ref, _password, token, progress) {
      await fault('resetPassword');
      await liveVm(ref);
      await step(progress, 50, 'Setting the root password');
      await once('reset-password', token, async () => null);
    },

    async reinstall(ref, osSlug, _password, token, progress) {
      await fault('reinstall');
      await liveVm(ref);
      await step(progress, 20, 'Shutting down');
      await step(progress, 50, 'Writing the image');
      await step(progress, 90, 'Booting');
      await once('reinstall', token, async (trx) => updateVm(trx, ref, { os_slug: osSlug, power: 'running' }).then(() => null));
    },

    async resize(ref, spec, token, progress) {
      await fault('resize');
      await liveVm(ref);
      await step(progress, 30, 'Shutting down');
      await step(progress, 60, 'Resizing');
      await step(progress, 90, 'Starting');
      await once('resize', token, async (trx) => updateVm(trx, ref, {
        cpu_cores: spec.cpuCores, ram_mb: spec.ramMb, storage_gb: spec.storageGb, power: 'running',
      }).then(() => null));
    },

    async snapshot(ref, token, progress) {
      await fault('snapshot');
      const vm = await liveVm(ref);
      await step(progress, 50, 'Copying the disk');
      return once('snapshot', token, async (trx) => {
        // A snapshot holds the used part of the disk: 15–45 % of it, fixed per machine.
        const share = 0.15 + (parseInt(vm.id.slice(-4), 16) % 31) / 100;
        const snap = { ref: newId('snap'), sizeGb: Math.max(0.01, Math.round(vm.storage_gb * share * 100) / 100) };
        await insertSnapshot(trx, { id: snap.ref, vm_id: ref, size_gb: snap.sizeGb, os_slug: vm.os_slug });
        return snap;
      });
    },

    async restoreSnapshot(ref, snapshotRef, token, progress) {
      await fault('restoreSnapshot');
      const vm = await liveVm(ref);
      const snap = await findSnapshot(db, snapshotRef);
      // A retry of a restore that worked finds the same snapshot; one that is gone cannot come back.
      if (!snap || snap.vm_id !== ref) throw new ProviderError('UPSTREAM_ERROR', `Snapshot ${snapshotRef} of machine ${ref} does not exist`, false);
      await step(progress, 20, 'Shutting down');
      await step(progress, 60, 'Restoring the disk');
      await step(progress, 90, 'Booting');
      await once('restore', token, async (trx) => updateVm(trx, ref, { os_slug: snap.os_slug ?? vm.os_slug, power: 'running' }).then(() => null));
    },

    async deleteSnapshot(snapshotRef) {
      await fault('deleteSnapshot');
      const snap = anyNode ? undefined : await findSnapshot(db, snapshotRef);
      if (snap) serves(snap);
      await sleep(delayMs);
      await deleteSnapshotRow(db, snapshotRef);
    },

    async status(ref, timeoutMs) {
      return withDeadline((async () => {
        // A timeout fault hangs past the deadline, so the caller sees the deadline, as with a real hang.
        const { mode, vm } = await consumeStatusFaultAndFindVm(db, ref);
        if (vm) serves(vm);
        await failAs('compute', 'status', mode, timeoutMs * 2);
        if (!vm || vm.destroyed_at) throw new ProviderError('UPSTREAM_ERROR', `Machine ${ref} does not exist`, false);
        return { power: vm.power, cpuCores: vm.cpu_cores, ramMb: vm.ram_mb, storageGb: vm.storage_gb, osSlug: vm.os_slug };
      })(), timeoutMs, 'Status');
    },

    async attachIp(ref, version, token) {
      await fault('attachIp');
      const vm = await liveVm(ref);
      return once(`attach-ipv${version}`, token, async (trx) => {
        const [address] = await leaseAddresses(trx, vm.location_id, version, ref, 1);
        return { address: address! };
      });
    },

    async releaseIp(ref, address) {
      await fault('releaseIp');
      const vm = await liveVm(ref);
      const normal = parseAddress(address)?.addr.toString();
      if (normal === vm.ipv4 || normal === vm.ipv6) {
        throw new ProviderError('UPSTREAM_ERROR', `${address} is the primary address of ${ref}`, false);
      }
      // Releasing an address the machine no longer holds is the retry of a release that worked.
      await db.transaction().execute(async (trx) => {
        await releaseLease(trx, ref, address);
        await clearSimReverseDns(trx, ref, normal ?? address);
      });
    },

    async setReverseDns(ref, address, hostname) {
      await fault('setReverseDns');
      const normal = await heldAddress(ref, address);
      await sleep(delayMs);
      await setSimReverseDns(db, ref, normal, hostname);
    },

    async reverseDns(ref, address) {
      await fault('reverseDns');
      return findSimReverseDns(db, await heldAddress(ref, address));
    },

    async firewallRules(ref) {
      await fault('firewallRules');
      await liveVm(ref);
      return (await listFirewallRules(db, ref)).map(({ position, direction, protocol, port, source, action }) => ({
        position, direction, protocol, port, source, action,
      }) as FirewallRule);
    },

    async openConsole(ref, ttlSeconds) {
      await fault('openConsole');
      await liveVm(ref);
      const ticket = randomBytes(24).toString('base64url');
      return { ticket, expiresAt: await insertConsoleSession(db, ticket, ref, ttlSeconds) };
    },

    async redeemConsole(ticket) {
      await fault('redeemConsole');
      return redeemConsoleSession(db, ticket);
    },

    async attachConsole(ticket) {
      const session = await claimConsoleAttach(db, ticket);
      if (session) serves(session);
      return session ? simulatedShell(session.hostname) : null;
    },

    async metrics(ref) {
      await fault('metrics');
      return metricsOf(await liveVm(ref), now());
    },

    async migrate(ref, target, token, progress) {
      await fault('migrate');
      const vm = await liveVm(ref);
      // The target too: its machines are another driver's once there.
      if (!anyNode && target.node !== vm.node) serves({ node: target.node, node_endpoint: (await findLxdNode(db, target.node))?.endpoint ?? null });
      if (!(await findRequest(db, `migrate:${token}`))) {
        // As Proxmox refuses an offline migration of a running guest: the caller stops it first.
        if (!target.live && vm.power === 'running') {
          throw new ProviderError('UPSTREAM_ERROR', `Machine ${ref} is running; stop it before an offline migration`, false);
        }
        if (target.live) {
          await step(progress, 30, `Copying memory to ${target.node}`);
          await step(progress, 70, 'Copying the pages written meanwhile');
          await step(progress, 90, `Switching over to ${target.node}`);
        } else {
          await step(progress, 40, `Copying the disk to ${target.node}`);
          await step(progress, 80, `Defining the machine on ${target.node}`);
        }
      }
      await once('migrate', token, async (trx) => {
        if (target.locationId === vm.location_id) {
          await updateVm(trx, ref, { node: target.node });
          return null;
        }
        // Another location: its addresses stay behind; the same number of each family is leased there.
        const leases = await listVmLeases(trx, ref);
        const extra = (version: 4 | 6, primary: string | null) => leases.filter((l) => l.version === version && l.address !== primary).length;
        const want4 = (vm.ipv4 ? 1 : 0) + extra(4, vm.ipv4);
        const want6 = (vm.ipv6 ? 1 : 0) + extra(6, vm.ipv6);
        await releaseAllLeases(trx, ref);
        const v4 = await leaseAddresses(trx, target.locationId, 4, ref, want4);
        const v6 = await leaseAddresses(trx, target.locationId, 6, ref, want6);
        await updateVm(trx, ref, {
          node: target.node, location_id: target.locationId, ipv4: vm.ipv4 ? v4[0] ?? null : null, ipv6: vm.ipv6 ? v6[0] ?? null : null,
        });
        return null;
      });
      return machineOf(await liveVm(ref), await listVmLeases(db, ref));
    },

    async traffic(ref, month) {
      await fault('traffic');
      const bounds = monthBounds(month);
      if (!bounds) throw new ProviderError('UPSTREAM_ERROR', `"${month}" is not a month (YYYY-MM)`, false);
      // A destroyed machine still has last month's bill of traffic.
      const vm = await findVm(db, ref);
      if (!vm) throw new ProviderError('UPSTREAM_ERROR', `Machine ${ref} does not exist`, false);
      serves(vm);
      return trafficOf(vm, month, bounds, now());
    },
  };
}
