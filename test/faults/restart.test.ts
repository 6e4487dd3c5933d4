// PostgreSQL stops and starts again — or freezes — under a running `hostcloud serve`: a real child
// process with DATABASE_URL on an embedded PostgreSQL of this test's own (never the run's shared
// server, never the machine's 5432). The process must live through it, answer 503 with Retry-After
// while the database is away (/readyz 503, /healthz 200) and never hang past the timeouts, serve
// again within seconds, and its worker must resume and finish the operations the fault cut off,
// charging each create once.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Send, countByStatus, reportFault, until } from '../../scripts/chaos/load.ts';
import { connect } from '../../src/db/connection.ts';
import { ensureDatabase } from '../../src/db/create-database.ts';
import { type EmbeddedServer, startEmbedded } from '../../src/db/embedded.ts';
import { CREATE_BODY, assertOnly503s, assertSettled, startTestLoad } from '../helpers/faults.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => { for (const fn of cleanups.reverse()) await fn().catch(() => {}); });

function httpSend(base: string, token: string): Send {
  return async (method, p, o) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(o?.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o?.headers },
      ...(o?.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
}

async function startServe(databaseUrl: string, adminToken: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  let out = '';
  const { DATA_DIR: _d, REDIS_URL: _r, ...inherited } = process.env;
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'serve'], {
    cwd: root,
    env: {
      ...inherited, DATABASE_URL: databaseUrl, ADMIN_TOKEN: adminToken, PORT: '0', HOST: '127.0.0.1', WORKER: 'embedded',
      SEED_DEMO: 'true', SIM_DELAY_MS: '100', OPERATION_LEASE_S: '3', JOB_MAINTENANCE_S: '1', JOB_RETRY_DELAY_S: '1', RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'info', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  cleanups.push(async () => { if (child.exitCode === null) { child.kill('SIGKILL'); } });
  // Its first start migrates and seeds a new database: on a busy machine that took over a minute.
  const port = await until('hostcloud serve to listen', 180_000, () => {
    if (child.exitCode !== null) throw new Error(`hostcloud serve exited (${child.exitCode}):\n${out}`);
    // The banner is text on a terminal and one JSON line ("listen") when the log is JSON.
    return /(?:listening on |"listen":")http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
  }, 100);
  return { child, base: `http://127.0.0.1:${port}`, output: () => out };
}

interface Drill {
  dir: string;
  pg: EmbeddedServer;
  databaseUrl: string;
  serve: Awaited<ReturnType<typeof startServe>>;
  admin: Send;
  customer: Send;
  account: string;
}

/** An embedded PostgreSQL of our own, a `hostcloud serve` child on it, and a funded customer. */
async function drillServer(env: Record<string, string> = {}): Promise<Drill> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-restart-'));
  await fs.chmod(dir, 0o755);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  const pg = await startEmbedded(dir);
  const drill = { dir, pg } as Drill;
  cleanups.push(() => drill.pg.stop());
  await ensureDatabase(pg.adminUrl, 'hc_drill');
  drill.databaseUrl = pg.urlFor('hc_drill');
  const adminToken = `drill-admin-${randomBytes(12).toString('hex')}`;
  drill.serve = await startServe(drill.databaseUrl, adminToken, env);
  const send = httpSend(drill.serve.base, adminToken);
  // A call that gets no answer says what the server said meanwhile (it may have ended).
  drill.admin = (method, p, o) => send(method, p, o).catch((e: unknown) => {
    throw new Error(`${method} ${p}: ${e instanceof Error ? `${e.message} (${String((e as { cause?: unknown }).cause ?? '')})` : e}; hostcloud serve ${drill.serve.child.exitCode === null ? 'running' : `exited ${drill.serve.child.exitCode}`}, its output:\n${drill.serve.output().slice(-4000)}`);
  });
  const setUp = answered(drill.admin);
  drill.account = JSON.parse((await setUp('POST', '/admin/v1/accounts', { body: { email: 'drill@example.com', name: 'Fault Drill' } })).body).data.id;
  assert.equal((await setUp('POST', `/admin/v1/accounts/${drill.account}/deposits`, { body: { amount: '1000.00' } })).status, 201);
  const key = JSON.parse((await setUp('POST', `/admin/v1/accounts/${drill.account}/api-keys`, { body: { name: 'drill', ip_allowlist: ['127.0.0.1'] } })).body).data.key as string;
  drill.customer = httpSend(drill.serve.base, key);
  return drill;
}

/**
 * Before a fault, a call as a client would make it: a 503 with Retry-After ("busy": with the drill's
 * 1 s timeouts a loaded machine can answer so while the server has just started, or under the load)
 * is asked again, as the answer tells a client to, within a deadline. Nothing it sends is changed by
 * a 503: the request did not get a connection, or its transaction was rolled back.
 */
function answered(send: Send): Send {
  return async (method, p, o) => until(`${method} ${p} answered (not 503)`, 60_000, async () => {
    const res = await send(method, p, o);
    return res.status === 503 && res.headers['retry-after'] ? undefined : res;
  }, 200);
}

/** Creates whose operations are still running when the fault hits. */
async function createsInFlight(customer: Send, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await answered(customer)('POST', '/v2/servers', { body: { ...CREATE_BODY, name: `drill-${i}.example.com` } });
    assert.equal(res.status, 201, res.body);
    ids.push(JSON.parse(res.body).data.id);
  }
  return ids;
}

function assertLivedThrough(serve: Drill['serve']): void {
  assert.equal(serve.child.exitCode, null, 'still running');
  const out = serve.output();
  assert.ok(!/Unhandled|uncaught|unhandledRejection|uncaughtException/i.test(out), `no unhandled error:\n${out.split('\n').filter((l) => /nhandled|ncaught/.test(l)).slice(0, 3).join('\n')}`);
  assert.ok(!out.includes('"unhandled error"'), 'no 500 was logged');
  assert.ok(out.includes('worker resumed'), 'the worker resumed by itself');
}

test('stop and restart PostgreSQL under a running hostcloud serve: it lives, answers 503 while down, recovers within seconds, its worker resumes', { timeout: 420_000 }, async () => {
  const d = await drillServer();
  const port = Number(new URL(d.pg.adminUrl).port);
  const load = startTestLoad({ send: d.customer, clients: 4, createEvery: 8, createBody: CREATE_BODY });
  await until('the load to warm up', 60_000, () => load.samples.length >= 40);
  const inFlight = await createsInFlight(d.customer, 3);

  const start = Date.now();
  await d.pg.stop();
  await until('clients to see the database down', 15_000, () => load.samples.some((s) => s.at > start && s.status === 503));
  const ready = await d.admin('GET', '/readyz');
  const health = await d.admin('GET', '/healthz');
  await until('a sustained outage, felt by clients and the worker', 15_000, () =>
    load.samples.filter((s) => s.at > start && s.status === 503).length >= 30 && d.serve.output().includes('worker paused'));
  assert.equal(d.serve.child.exitCode, null, 'the process lives while its database is gone');

  d.pg = await startEmbedded(d.dir, () => {}, { port });
  const end = Date.now();
  await until('clients served again', 30_000, () => {
    const later = load.samples.filter((s) => s.at > end);
    return later.length >= 30 && later.slice(-15).every((s) => s.status < 300);
  });
  await until('/readyz to say ready', 15_000, async () => (await d.admin('GET', '/readyz')).status === 200);
  await load.stop();

  assert.deepEqual([ready.status, ready.headers['retry-after'], health.status], [503, '2', 200]);
  assertOnly503s(load.samples);
  const outage = load.samples.filter((s) => s.at > start && s.at < end);
  const slowest = Math.max(...outage.map((s) => s.ms));
  assert.ok(slowest < 6_000, `answers during the outage come within the connect timeout (slowest ${slowest} ms)`);
  const report = reportFault(load.samples, start, end);
  assert.ok(report.recoveryMs < 10_000, `served again ${report.recoveryMs} ms after the restart`);
  assert.deepEqual(load.rejected, []);

  const check = connect(d.databaseUrl, { max: 2 });
  cleanups.push(() => check.close());
  await assertSettled(check.db, d.account, [...inFlight, ...load.created], true);
  assertLivedThrough(d.serve);
  process.stdout.write(`# stop/restart PostgreSQL: down ${end - start} ms; clients saw ${JSON.stringify(countByStatus(load.samples.filter((s) => s.at >= start)))}; slowest answer while down ${slowest} ms; served again ${report.recoveryMs} ms after the restart\n`);

  d.serve.child.kill('SIGTERM');
  await until('a clean stop', 30_000, () => d.serve.child.exitCode !== null, 100);
  assert.equal(d.serve.child.exitCode, 0);
});

/** Every process of the embedded server in `dir` (postmaster and its children). */
function serverProcesses(dir: string): number[] {
  const master = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = spawnSync('pgrep', ['-P', String(master)]).stdout.toString().trim().split('\n').filter(Boolean).map(Number);
  return [master, ...children];
}

test('a frozen PostgreSQL (SIGSTOP): every answer is a 503 within the statement timeout, never a hang; after SIGCONT, 200 again', { timeout: 420_000 }, async () => {
  const d = await drillServer({ DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_CONNECT_TIMEOUT_MS: '1000' });
  const load = startTestLoad({ send: d.customer, clients: 4, createEvery: 8, createBody: CREATE_BODY });
  await until('the load to warm up', 60_000, () => load.samples.length >= 40);
  const inFlight = await createsInFlight(d.customer, 2);

  const procs = serverProcesses(d.dir);
  const thaw = () => { for (const pid of procs) { try { process.kill(pid, 'SIGCONT'); } catch { /* gone */ } } };
  cleanups.push(async () => thaw());
  const start = Date.now();
  let end: number;
  try {
    for (const pid of procs) process.kill(pid, 'SIGSTOP');
    await until('frozen-database answers', 30_000, () => load.samples.filter((s) => s.at > start && s.status === 503).length >= 20, 100);
    const ready = await d.admin('GET', '/readyz');
    assert.equal(ready.status, 503);
  } finally {
    thaw();
    end = Date.now();
  }
  await until('clients served again', 30_000, () => {
    const later = load.samples.filter((s) => s.at > end);
    return later.length >= 30 && later.slice(-15).every((s) => s.status < 300);
  });
  await load.stop();

  assertOnly503s(load.samples);
  const frozen = load.samples.filter((s) => s.at > start && s.at <= end + 5_000);
  const slowest = Math.max(...frozen.map((s) => s.ms));
  // 1 s statement timeout + the 2 s read margin, or the 1 s wait for a connection; some slack for a busy machine.
  assert.ok(slowest < 6_000, `no answer took longer than the timeouts allow (slowest ${slowest} ms)`);
  const report = reportFault(load.samples, start, end);
  const check = connect(d.databaseUrl, { max: 2 });
  cleanups.push(() => check.close());
  await assertSettled(check.db, d.account, [...inFlight, ...load.created], true);
  assertLivedThrough(d.serve);
  process.stdout.write(`# frozen PostgreSQL for ${end - start} ms: clients saw ${JSON.stringify(countByStatus(frozen))}; slowest answer ${slowest} ms; served again ${report.recoveryMs} ms after SIGCONT\n`);
});
