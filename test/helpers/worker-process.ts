// A `hostcloud worker` child process on a test file's database, for the crash tests: short leases
// (OPERATION_LEASE_S=3) so a SIGKILLed worker's operation is taken over within seconds.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../src/core/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children: ChildProcess[] = [];

/** Kill every worker this file started; register with `after(killWorkers)`. */
export function killWorkers(): void {
  for (const c of children) c.kill('SIGKILL');
}

export function startWorker(databaseUrl: string, simDelayMs: number, extraEnv: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  let out = '';
  const { ADMIN_TOKEN: _a, DATA_DIR: _d, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'worker'], {
    cwd: root,
    env: { ...env, DATABASE_URL: databaseUrl, SIM_DELAY_MS: String(simDelayMs), OPERATION_LEASE_S: '3', JOB_MAINTENANCE_S: '1', JOB_RETRY_DELAY_S: '1', WORKER_POLL_MS: '50', WORKER_CONCURRENCY: '2', LOG_LEVEL: 'info', IP_COOLDOWN_S: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  children.push(child);
  return { child, output: () => out };
}

/** Waits until none of `ops` is queued or running (a worker drained them), or fails after `timeoutMs`. */
export function untilOperationsSettled(db: Db, ops: string[], timeoutMs = 45_000): Promise<true> {
  return until('the backlog to be drained', timeoutMs, async () => {
    const left = await db.selectFrom('operations').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('id', 'in', ops).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow();
    return Number(left.n) === 0 ? true : undefined;
  });
}

/** Polls `probe` every 100 ms until it answers something, or fails naming `what`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
