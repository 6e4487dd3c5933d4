// PostgreSQL stops and starts again under a running `hostcloud serve` — a real child process with
// DATABASE_URL on an embedded PostgreSQL of this test's own (never the run's shared server, never
// the machine's 5432). The process must live through it, answer 503 with Retry-After while the
// database is down (/readyz 503, /healthz 200), serve again within seconds of the restart, and its
// worker must resume and finish the operations the stop cut off, charging each create once.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Send, countByStatus, reportFault, startLoad, until } from '../../scripts/chaos/load.ts';
import { connect } from '../../src/db/connection.ts';
import { ensureDatabase } from '../../src/db/create-database.ts';
import { type EmbeddedServer, startEmbedded } from '../../src/db/embedded.ts';
import { CREATE_BODY, assertOnly503s, assertSettled } from '../helpers/faults.ts';

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

async function startServe(databaseUrl: string, adminToken: string): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  let out = '';
  const { DATA_DIR: _d, REDIS_URL: _r, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'serve'], {
    cwd: root,
    env: {
      ...env, DATABASE_URL: databaseUrl, ADMIN_TOKEN: adminToken, PORT: '0', HOST: '127.0.0.1', WORKER: 'embedded',
      SIM_DELAY_MS: '100', OPERATION_LEASE_S: '3', JOB_MAINTENANCE_S: '1', JOB_RETRY_DELAY_S: '1', RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  cleanups.push(async () => { if (child.exitCode === null) { child.kill('SIGKILL'); } });
  const port = await until('hostcloud serve to listen', 60_000, () => {
    if (child.exitCode !== null) throw new Error(`hostcloud serve exited (${child.exitCode}):\n${out}`);
    return /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
  }, 100);
  return { child, base: `http://127.0.0.1:${port}`, output: () => out };
}

test('stop and restart PostgreSQL under a running hostcloud serve: it lives, answers 503 while down, recovers within seconds, its worker resumes', { timeout: 180_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-restart-'));
  await fs.chmod(dir, 0o755);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  let pg: EmbeddedServer = await startEmbedded(dir);
  cleanups.push(() => pg.stop());
  const port = Number(new URL(pg.adminUrl).port);
  await ensureDatabase(pg.adminUrl, 'hc_restart');
  const databaseUrl = pg.urlFor('hc_restart');

  const adminToken = `restart-admin-${randomBytes(12).toString('hex')}`;
  const serve = await startServe(databaseUrl, adminToken);
  const admin = httpSend(serve.base, adminToken);
  const account = JSON.parse((await admin('POST', '/admin/v1/accounts', { body: { email: 'restart@example.com', name: 'Restart Drill' } })).body).data.id as string;
  assert.equal((await admin('POST', `/admin/v1/accounts/${account}/deposits`, { body: { amount: '1000.00' } })).status, 201);
  const key = JSON.parse((await admin('POST', `/admin/v1/accounts/${account}/api-keys`, { body: { name: 'drill', ip_allowlist: ['127.0.0.1'] } })).body).data.key as string;
  const customer = httpSend(serve.base, key);

  const load = startLoad({ send: customer, clients: 4, createEvery: 8, createBody: CREATE_BODY });
  await until('the load to warm up', 20_000, () => load.samples.length >= 40);
  // Operations the stop cuts off mid-run.
  const inFlight: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await customer('POST', '/v2/servers', { body: { ...CREATE_BODY, name: `restart-${i}.example.com` } });
    assert.equal(res.status, 201, res.body);
    inFlight.push(JSON.parse(res.body).data.id);
  }

  const start = Date.now();
  await pg.stop();
  await until('clients to see the database down', 15_000, () => load.samples.some((s) => s.at > start && s.status === 503));
  const ready = await admin('GET', '/readyz');
  const health = await admin('GET', '/healthz');
  await until('a sustained outage, felt by clients and the worker', 15_000, () =>
    load.samples.filter((s) => s.at > start && s.status === 503).length >= 30 && serve.output().includes('worker paused'));
  assert.equal(serve.child.exitCode, null, 'the process lives while its database is gone');

  pg = await startEmbedded(dir, () => {}, { port });
  const end = Date.now();
  await until('clients served again', 30_000, () => {
    const later = load.samples.filter((s) => s.at > end);
    return later.length >= 30 && later.slice(-15).every((s) => s.status < 300);
  });
  await until('/readyz to say ready', 15_000, async () => (await admin('GET', '/readyz')).status === 200);
  await load.stop();

  assert.deepEqual([ready.status, ready.headers['retry-after'], health.status], [503, '2', 200]);
  assertOnly503s(load.samples);
  const outage = load.samples.filter((s) => s.at > start && s.at < end);
  const slowest = Math.max(...outage.map((s) => s.ms));
  assert.ok(slowest < 6_000, `answers during the outage come within the connect timeout (slowest ${slowest} ms)`);
  const report = reportFault(load.samples, start, end);
  assert.ok(report.recoveryMs < 10_000, `served again ${report.recoveryMs} ms after the restart`);
  assert.deepEqual(load.rejected, []);

  const check = connect(databaseUrl, { max: 2 });
  cleanups.push(() => check.close());
  await assertSettled(check.db, account, [...inFlight, ...load.created], true);
  assert.equal(serve.child.exitCode, null, 'still running');
  const out = serve.output();
  assert.ok(!/Unhandled|uncaught|unhandledRejection|uncaughtException/i.test(out), `no unhandled error:\n${out.split('\n').filter((l) => /nhandled|ncaught/.test(l)).slice(0, 3).join('\n')}`);
  assert.ok(!out.includes('"unhandled error"'), 'no 500 was logged');
  assert.ok(out.includes('worker resumed'), 'the worker resumed by itself');
  process.stdout.write(`# stop/restart PostgreSQL: down ${end - start} ms; clients saw ${JSON.stringify(countByStatus(load.samples.filter((s) => s.at >= start)))}; slowest answer while down ${slowest} ms; served again ${report.recoveryMs} ms after the restart\n`);

  serve.child.kill('SIGTERM');
  await until('a clean stop', 30_000, () => serve.child.exitCode !== null, 100);
  assert.equal(serve.child.exitCode, 0);
});
