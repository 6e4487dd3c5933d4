// What the restore and failover drills start on this machine: PostgreSQL clusters of the installed
// server (Debian's /usr/lib/postgresql/N/bin, or PG_BIN), `hostcloud serve`/`worker` processes,
// each on 127.0.0.1 and a free port, in a temp directory of the drill's own; never the machine's
// own PostgreSQL. As root, PostgreSQL (which refuses root) runs as the `postgres` user.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The newest installed PostgreSQL's bin directory. */
export function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin/postgres'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0]) throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql), or set PG_BIN');
  return path.join(base, versions[0], 'bin');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
/** uid/gid PostgreSQL (and Patroni) run as: the postgres user when we are root, else ourselves. */
export const pgUser: { uid: number; gid: number } | undefined = asRoot
  ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) }
  : undefined;

/** A directory the PostgreSQL user owns. */
export function pgDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (pgUser) fs.chownSync(dir, pgUser.uid, pgUser.gid);
  return dir;
}

/** Runs a PostgreSQL tool as the PostgreSQL user; throws with its output when it fails. */
export function pgTool(tool: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(tool.includes('/') ? tool : path.join(pgBin(), tool), args, {
      env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...(pgUser ?? {}), cwd: '/tmp', maxBuffer: 64 << 20,
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${tool} ${args.join(' ')} failed: ${err.stderr || err.stdout || err.message}`);
  }
}

export interface Cluster {
  dir: string;
  port: number;
  url(database?: string): string;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
}

/** A new cluster (initdb, trust on 127.0.0.1) with extra postgresql.conf lines; not started. */
export function initCluster(dir: string, port: number, conf: string[] = []): Cluster {
  pgDir(path.dirname(dir));
  pgTool('initdb', ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  fs.appendFileSync(path.join(dir, 'postgresql.conf'), [
    `port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${path.dirname(dir)}'`,
    'max_connections = 300', 'fsync = off', 'synchronous_commit = on', 'full_page_writes = on', ...conf, '',
  ].join('\n'));
  return clusterAt(dir, port);
}

/** A cluster in an existing data directory. */
export function clusterAt(dir: string, port: number): Cluster {
  return {
    dir, port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => { pgTool('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', '-t', '120', '-o', `-p ${port}`, 'start']); },
    stop: (mode = 'fast') => { try { pgTool('pg_ctl', ['-D', dir, '-m', mode, '-w', 'stop']); } catch { /* already stopped */ } },
  };
}

export async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  c.on('error', () => {});
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end().catch(() => {});
  }
}

export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined | null | false>, everyMs = 200, proc?: Proc): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A process that died will not become ready: say so now, not after the timeout.
    if (proc && (proc.child.exitCode !== null || proc.child.signalCode !== null)) throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) while waiting for ${what}: see its log`);
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface Proc {
  child: ChildProcess;
  name: string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 20 s). */
  stop(): Promise<void>;
}

/** A long-running child whose output goes to `log`. */
export function startProcess(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, log: string, opts: { uid?: number; gid?: number; cwd?: string } = {}): Proc {
  const out = fs.openSync(log, 'a');
  const child = spawn(cmd, args, { env, stdio: ['ignore', out, out], ...opts });
  fs.closeSync(out);
  child.on('error', () => {});
  return {
    child, name,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** `hostcloud serve` or `worker` of this checkout. */
export function startHostcloud(command: 'serve' | 'worker', env: NodeJS.ProcessEnv, log: string): Proc {
  return startProcess(`hostcloud ${command}`, process.execPath, [path.join(ROOT, 'bin/hostcloud.js'), command], {
    PATH: process.env.PATH, HOME: process.env.HOME, LOG_FORMAT: 'json', LOG_LEVEL: 'warn', ...env,
  }, log, { cwd: ROOT });
}

export interface Reply { status: number; body: any; headers: Headers } // eslint-disable-line @typescript-eslint/no-explicit-any

/** A JSON call; status 0 when no answer came. */
export async function call(base: string, method: string, p: string, opts: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Reply> {
  try {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 40_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, body, headers: res.headers };
  } catch {
    return { status: 0, body: null, headers: new Headers() };
  }
}

export function must(r: Reply, status: number, what: string) {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body.data;
}

/** The cheapest available plan with a location and an OS: a create's body. */
export async function createBody(base: string, token: string): Promise<Record<string, unknown>> {
  const list = async (p: string) => must(await call(base, 'GET', p, { token }), 200, p) as Record<string, unknown>[];
  const plans = (await list('/v2/plans?per_page=100')).filter((p) => p.available !== false).sort((a, b) => Number((a.price as { amount: string }).amount) - Number((b.price as { amount: string }).amount));
  const locations = await list('/v2/locations?per_page=100');
  const os = (await list('/v2/operating-systems?per_page=100')).filter((o) => o.available !== false);
  if (!plans[0] || !locations[0] || !os[0]) throw new Error('the catalog has no plan, location or OS to create servers with (SEED_DEMO=true seeds one)');
  return { plan_id: plans[0].id, location_id: locations[0].id, os_version_id: os[0].id, password: 'Dr1ll!Restore-pass' };
}
