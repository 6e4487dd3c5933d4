// The bench's measurements of whole processes: `hostcloud worker` processes draining a backlog,
// the API's peak RSS, and the cold start of `npm start` on a fresh DATA_DIR.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../src/core/types.ts';

const BIN = (root: string) => path.join(root, 'bin/hostcloud.js');

function stop(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
}

/** Peak resident set (VmHWM) of a live process, in MB; null where /proc is not there. */
export async function peakRssMb(pid: number): Promise<number | null> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kb = status && /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
}

async function count(db: Db, status: string): Promise<number> {
  return (await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = ${status}`.execute(db)).rows[0]!.n;
}

/** Operations still to run (queued or running). */
export async function unfinishedOperations(db: Db): Promise<number> {
  return (await count(db, 'queued')) + (await count(db, 'running'));
}

export interface WorkerRun {
  processes: number; opsPerS: number; completed: number; seconds: number; failed: number;
  /** CPU time per completed operation, ms: of the worker processes, and of the PostgreSQL backends serving them. */
  cpuMsPerOp: { worker: number; database: number } | null;
}

/** What the workers' connections call themselves (PGAPPNAME), so their backends can be found. */
const WORKER_APP = 'hostcloud-bench-worker';

/** CPU seconds (user + system) a process has used; null once it is gone or where /proc is not there. */
async function cpuSeconds(pid: number): Promise<number | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // Fields after the command (which may hold spaces): utime and stime are the 14th and 15th, in USER_HZ (100 on Linux).
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

/**
 * CPU seconds so far of the worker processes and of their database backends, by pid. A machine
 * shared with other work slows a run down, but hardly changes the CPU each operation costs.
 */
async function cpuSample(db: Db, workers: number[]): Promise<Map<string, number>> {
  const backends = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${WORKER_APP} AND datname = current_database()`.execute(db);
  const out = new Map<string, number>();
  for (const [kind, pids] of [['w', workers], ['d', backends.rows.map((r) => r.pid)]] as const) {
    for (const pid of pids) {
      const s = await cpuSeconds(pid);
      if (s !== null) out.set(`${kind}${pid}`, s);
    }
  }
  return out;
}

function cpuSpent(before: Map<string, number>, after: Map<string, number>, kind: 'w' | 'd'): number {
  let sum = 0;
  for (const [k, v] of after) if (k.startsWith(kind)) sum += v - (before.get(k) ?? 0);
  return sum;
}

/**
 * `processes` worker processes (SIM_DELAY_MS=0) on the queued backlog. The clock starts at the
 * first completion (so process start-up is not counted) and stops when the backlog is drained or
 * after `maxS` seconds.
 */
export async function workerRun(root: string, db: Db, url: string, processes: number, maxS: number): Promise<WorkerRun> {
  const failedBefore = await count(db, 'failed');
  const doneBefore = await count(db, 'completed');
  const kids: ChildProcess[] = [];
  for (let i = 0; i < processes; i++) {
    kids.push(spawn(process.execPath, [BIN(root), 'worker'], {
      cwd: root, stdio: 'ignore',
      env: { ...process.env, DATABASE_URL: url, SIM_DELAY_MS: '0', LOG_LEVEL: 'warn', JOB_MAINTENANCE_S: '60', PGAPPNAME: WORKER_APP },
    }));
  }
  try {
    let t0 = 0;
    let base = doneBefore;
    let cpu0 = new Map<string, number>();
    const pids = kids.map((k) => k.pid!);
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const done = await count(db, 'completed');
      if (!t0) {
        if (done > doneBefore) { t0 = Date.now(); base = done; cpu0 = await cpuSample(db, pids); }
        continue;
      }
      const queued = await count(db, 'queued') + await count(db, 'running');
      const seconds = (Date.now() - t0) / 1000;
      if (queued === 0 || seconds >= maxS) {
        const cpu1 = await cpuSample(db, pids);
        const final = await count(db, 'completed');
        const failed = (await count(db, 'failed')) - failedBefore;
        const ms = (kind: 'w' | 'd') => (cpuSpent(cpu0, cpu1, kind) * 1000) / Math.max(1, final - base);
        return { processes, opsPerS: (done - base) / seconds, completed: done - base, seconds, failed, cpuMsPerOp: cpu1.size ? { worker: ms('w'), database: ms('d') } : null };
      }
    }
  } finally {
    await Promise.all(kids.map(stop));
  }
}

/**
 * Seconds from `npm start` on a fresh DATA_DIR (embedded PostgreSQL) to its banner: npm itself,
 * the prestart build check (dist/ is fresh: the bench built it), initdb, migrations, seed, listen.
 */
export async function coldStart(root: string): Promise<number> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-cold-'));
  await fs.chmod(dataDir, 0o755);
  const t0 = Date.now();
  // Its own process group: npm, its shell and node stop together.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DATABASE_URL: '', ADMIN_TOKEN: '', LOG_LEVEL: 'warn', WORKER: 'off' },
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += String(d);
        if (out.includes('Hostcloud is listening')) resolve((Date.now() - t0) / 1000);
      });
      child.stderr!.on('data', (d) => { out += String(d); });
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out.slice(-500)}`)));
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((r) => { child.once('exit', r); process.kill(-child.pid!, 'SIGTERM'); });
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
