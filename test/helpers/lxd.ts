// Tests against real LXD. scripts/lxd-setup.sh prepares the machine (two stand-alone daemons, a
// cluster of two more, a trusted test certificate, the busybox test image) and writes LXD_TEST_DIR/env; without it, or with the daemon
// down, the LXD test files are skipped with one line saying why — unless LXD_TESTS=required (CI),
// where a missing LXD fails the file. Each test file works in an LXD project of its own on both
// daemons, removed with everything in it when the file ends, so files run in parallel.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { LxdClient, LxdError } from '../../src/providers/compute/lxd/client.ts';
import { deleteInstance } from '../../src/providers/compute/lxd/instance.ts';
import { ensureProject } from '../../src/providers/compute/lxd/nodes.ts';
import type { ClientCertificate } from '../../src/providers/compute/lxd/transport.ts';

export interface LxdTestEnv {
  /** The default daemon's endpoint (unix socket). */
  first: string;
  /** The second daemon over https, and its socket. */
  second: string;
  secondSocket: string;
  secondFingerprint: string;
  image: string;
  certFile: string;
  keyFile: string;
  certificate: ClientCertificate;
  /** The two-member LXD cluster (one node for Hostcloud); null when this machine's setup has none. */
  cluster: LxdTestCluster | null;
  /** This file's LXD project (on both daemons, and on the cluster when the file uses it). */
  project: string;
}

export interface LxdTestCluster {
  /** The cluster's address (its first member's, over https). */
  endpoint: string;
  /** The first member's socket (root-trusted: for looking behind Hostcloud's back). */
  socket: string;
  /** The cluster certificate's fingerprint: every member answers with it. */
  fingerprint: string;
  members: string[];
}

const dir = process.env.LXD_TEST_DIR ?? '/var/lib/hostcloud-lxd-test';

function readEnv(): Record<string, string> | string {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, 'env'), 'utf8');
  } catch {
    return `no LXD test setup at ${dir} (run scripts/lxd-setup.sh as root)`;
  }
  return Object.fromEntries(text.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** The command a daemon's firewall driver runs, when this machine lacks it. */
export function firewallCommandMissing(driver: string | undefined): string | null {
  const command = driver === 'xtables' ? 'iptables' : driver === 'nftables' ? 'nft' : null;
  if (!command) return null;
  const found = (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin'])
    .some((d) => d && fs.existsSync(path.join(d, command)));
  return found ? null : command;
}

async function probe(): Promise<LxdTestEnv | string> {
  const env = readEnv();
  if (typeof env === 'string') return env;
  const first = env.LXD_TEST_FIRST!;
  const probeClient = new LxdClient({ endpoint: first, client: null, fingerprint: null, project: null, timeoutMs: 3000 });
  try {
    for (const endpoint of [first, env.LXD_TEST_SECOND_SOCKET!]) {
      const c = endpoint === first ? probeClient : new LxdClient({ endpoint, client: null, fingerprint: null, project: null, timeoutMs: 3000 });
      try {
        const server = await c.get<{ environment?: { firewall?: string } }>('/1.0', { global: true });
        const missing = firewallCommandMissing(server.environment?.firewall);
        // A daemon started before nft or iptables existed keeps a firewall driver with no command
        // behind it, and no instance with a routed NIC can start: every LXD test would fail on it.
        if (missing) return `the LXD daemon at ${endpoint} started without a firewall command (driver ${server.environment?.firewall}, no ${missing}); run scripts/lxd-setup.sh, which installs nftables and restarts it`;
      } finally {
        if (c !== probeClient) c.close();
      }
    }
  } catch (e) {
    return `the LXD daemon at ${first} does not answer (${e instanceof Error ? e.message : e}); run scripts/lxd-setup.sh`;
  } finally {
    probeClient.close();
  }
  let certificate: ClientCertificate;
  try {
    certificate = { cert: fs.readFileSync(env.LXD_TEST_CERT!, 'utf8'), key: fs.readFileSync(env.LXD_TEST_KEY!, 'utf8') };
  } catch {
    return `the LXD test certificate is missing (${env.LXD_TEST_CERT}); run scripts/lxd-setup.sh`;
  }
  return {
    first, second: env.LXD_TEST_SECOND!, secondSocket: env.LXD_TEST_SECOND_SOCKET!, secondFingerprint: env.LXD_TEST_SECOND_FINGERPRINT!,
    image: env.LXD_TEST_IMAGE!, certFile: env.LXD_TEST_CERT!, keyFile: env.LXD_TEST_KEY!, certificate,
    cluster: env.LXD_TEST_CLUSTER ? {
      endpoint: env.LXD_TEST_CLUSTER, socket: env.LXD_TEST_CLUSTER_SOCKET!, fingerprint: env.LXD_TEST_CLUSTER_FINGERPRINT!,
      members: (env.LXD_TEST_CLUSTER_MEMBERS ?? '').split(',').filter(Boolean),
    } : null,
    project: `hct-${randomBytes(5).toString('hex')}`,
  };
}

const probed = await probe();
if (typeof probed === 'string' && process.env.LXD_TESTS === 'required') {
  throw new Error(`LXD_TESTS=required but ${probed}`);
}

/** The LXD setup, or null when the file is skipped. */
export const lxd: LxdTestEnv | null = typeof probed === 'string' ? null : probed;
/** `skip` for the file's suite: false, or why it is skipped. */
export const lxdSkip: string | false = typeof probed === 'string' ? `LXD not available: ${probed}` : false;

/** A client of one of the test daemons in this file's project (the socket ones are root-trusted). */
export function lxdClient(endpoint: string, project: string | null = lxd!.project): LxdClient {
  const https = endpoint.startsWith('https:');
  const fingerprint = endpoint === lxd!.cluster?.endpoint ? lxd!.cluster.fingerprint : lxd!.secondFingerprint;
  return new LxdClient({
    endpoint, project, client: https ? lxd!.certificate : null, fingerprint: https ? fingerprint : null, timeoutMs: 30_000,
  });
}

/** The daemons this file's project lives on: both stand-alone ones, and the cluster once asked for. */
const projectEndpoints = (): string[] => [lxd!.first, lxd!.secondSocket, ...(usesCluster ? [lxd!.cluster!.socket] : [])];
let usesCluster = false;

let prepared: Promise<void> | undefined;

// Registered at import (the file's root context), after the app helper's own cleanup (imported
// first), so the workers have stopped before their instances and project go.
after(async () => {
  if (!prepared) return;
  await prepared.catch(() => {});
  await removeLxdProject();
});

/**
 * Makes this file's project on both daemons (and on the cluster with `cluster`: the file's first
 * call decides); it and everything in it go when the file ends.
 */
export function prepareLxdProject(opts: { cluster?: boolean } = {}): Promise<void> {
  if (opts.cluster && !prepared) {
    if (!lxd!.cluster) throw new Error('this machine\'s LXD test setup has no cluster: run scripts/lxd-setup.sh again');
    usesCluster = true;
  }
  prepared ??= (async () => {
    const env = lxd!;
    for (const endpoint of projectEndpoints()) {
      const c = lxdClient(endpoint);
      try {
        await ensureProject(c, env.project);
      } finally {
        c.close();
      }
    }
  })();
  return prepared;
}

async function removeLxdProject(): Promise<void> {
  const env = lxd!;
  for (const endpoint of projectEndpoints()) {
    const c = lxdClient(endpoint);
    try {
      const names = await c.get<string[]>('/1.0/instances');
      for (const url of names) await deleteInstance(c, decodeURIComponent(url.split('/').pop()!.split('?')[0]!));
      await c.request('DELETE', `/1.0/projects/${env.project}`, { global: true }).catch((e: unknown) => {
        if (!(e instanceof LxdError && e.status === 404)) throw e;
      });
    } catch (e) {
      process.stderr.write(`lxd cleanup of project ${env.project}: ${e instanceof Error ? e.message : e}\n`);
    } finally {
      c.close();
    }
  }
}

export interface SocketProxy {
  /** The proxy's socket: give the node the endpoint `unix:<path>`. */
  path: string;
  /** The daemon "stops": open connections are cut, new ones refused. */
  stop(): Promise<void>;
  /** The daemon is back. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A unix socket forwarding to an LXD daemon's: a node that can go away (the real daemon is shared
 * by every test file, so it is never stopped). `cutWhen` sees each request's first bytes; when it
 * answers true, that request is not forwarded and the proxy stops, as a daemon stopping mid-call.
 */
export async function socketProxy(target: string, cutWhen: (head: string) => boolean = () => false): Promise<SocketProxy> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hc-lxd-proxy-'));
  const sock = path.join(dir, 'lxd.socket');
  const open = new Set<net.Socket>();
  let server: net.Server | null = null;
  const stop = async () => {
    const s = server;
    server = null;
    for (const c of open) c.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
    await fsp.rm(sock, { force: true });
  };
  const start = async () => {
    const s = net.createServer((client) => {
      const upstream = net.connect({ path: target });
      open.add(client);
      open.add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        open.delete(client);
        open.delete(upstream);
      };
      client.on('data', (chunk: Buffer) => {
        if (cutWhen(chunk.toString('latin1', 0, 200))) {
          void stop();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((r) => s.listen(sock, r));
    server = s;
  };
  await start();
  return {
    path: sock,
    stop,
    start,
    async close() {
      await stop();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
