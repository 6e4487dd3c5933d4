// CPU time of the processes a figure is made of, read from /proc (Linux; elsewhere the figures are
// left out). A machine shared with other work slows a run down, but hardly changes the CPU each
// request or operation costs: it is the figure that says where a run's time goes, and what the two
// cores could give at most.
import fs from 'node:fs/promises';
import { sql } from 'kysely';
import type { Db } from '../src/core/types.ts';

/** CPU seconds (user + system) a process has used; null once it is gone or where /proc is not there. */
async function cpuSeconds(pid: number): Promise<number | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // Fields after the command (which may hold spaces): utime and stime are the 14th and 15th, in USER_HZ (100 on Linux).
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

/** Busy CPU seconds of the whole machine so far (every core; not idle, not waiting on I/O). */
async function machineBusySeconds(): Promise<number | null> {
  const stat = await fs.readFile('/proc/stat', 'utf8').catch(() => null);
  const cpu = stat?.split('\n')[0]?.split(/\s+/).slice(1).map(Number);
  if (!cpu || cpu.length < 8) return null;
  const [user, nice, system, , , irq, softirq, steal] = cpu as [number, number, number, number, number, number, number, number];
  return (user + nice + system + irq + softirq + steal) / 100;
}

export interface CpuSample {
  /** By pid: 'p<pid>' the processes measured, 'd<pid>' their PostgreSQL backends. */
  byPid: Map<string, number>;
  machine: number | null;
  /** This process (the load generator, where autocannon runs), seconds. */
  self: number;
}

/**
 * CPU seconds so far of `pids` and of the backends of the connections that call themselves
 * `appName` (PGAPPNAME) on the current database.
 */
export async function cpuSample(db: Db, appName: string, pids: number[]): Promise<CpuSample> {
  const backends = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${appName} AND datname = current_database()`.execute(db);
  const byPid = new Map<string, number>();
  for (const [kind, list] of [['p', pids], ['d', backends.rows.map((r) => r.pid)]] as const) {
    for (const pid of list) {
      const s = await cpuSeconds(pid);
      if (s !== null) byPid.set(`${kind}${pid}`, s);
    }
  }
  const u = process.cpuUsage();
  return { byPid, machine: await machineBusySeconds(), self: (u.user + u.system) / 1e6 };
}

export interface CpuSpent { process: number; database: number; self: number; machine: number | null }

/** CPU seconds spent between two samples. A backend that started in between counts from zero. */
export function cpuSpent(before: CpuSample, after: CpuSample): CpuSpent {
  const sum = (kind: 'p' | 'd') => {
    let s = 0;
    for (const [k, v] of after.byPid) if (k.startsWith(kind)) s += v - (before.byPid.get(k) ?? 0);
    return s;
  };
  const machine = after.machine !== null && before.machine !== null ? after.machine - before.machine : null;
  return { process: sum('p'), database: sum('d'), self: after.self - before.self, machine };
}
