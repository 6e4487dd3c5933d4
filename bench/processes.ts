// The bench's measurements of whole processes: `hostcloud worker` processes draining a backlog,
// the API's peak RSS, and the cold start of `npm start` on a fresh DATA_DIR.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../src/core/types.ts';
import { type CpuSample, cpuSample, cpuSpent } from './cpu.ts';

const BIN = (root: string) => path.join(root, 'bin/hostcloud.js');

function stop(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
}

async function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number | null> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kb = status && new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
}

/** Peak resident set (VmHWM) of a live process, in MB; null where /proc is not there. */
export const peakRssMb = (pid: number) => statusMb(pid, 'VmHWM');

/** Resident set now (VmRSS) of a live process, in MB; null where /proc is not there. */
export const rssMb = (pid: number) => statusMb(pid, 'VmRSS');

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
    let cpu0: CpuSample | undefined;
    const pids = kids.map((k) => k.pid!);
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const done = await count(db, 'completed');
      if (!t0) {
        if (done > doneBefore) { t0 = Date.now(); base = done; cpu0 = await cpuSample(db, WORKER_APP, pids); }
        continue;
      }
      const queued = await count(db, 'queued') + await count(db, 'running');
      const seconds = (Date.now() - t0) / 1000;
      if (queued === 0 || seconds >= maxS) {
        const cpu1 = await cpuSample(db, WORKER_APP, pids);
        const final = await count(db, 'completed');
        const failed = (await count(db, 'failed')) - failedBefore;
        const spent = cpuSpent(cpu0!, cpu1);
        const ms = (s: number) => (s * 1000) / Math.max(1, final - base);
        return { processes, opsPerS: (done - base) / seconds, completed: done - base, seconds, failed, cpuMsPerOp: cpu1.byPid.size ? { worker: ms(spent.process), database: ms(spent.database) } : null };
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
