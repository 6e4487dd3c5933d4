// `npm run bench`: loopback load tests of the hot paths against a bare Fastify baseline, and the
// throughput of one worker. PostgreSQL: BENCH_DATABASE_URL (a server; a fresh database is made
// on it) or an embedded one in a temporary directory. Options (env): BENCH_DURATION_S per run
// (default 10), BENCH_CONNECTIONS (32), BENCH_ACCOUNTS paying accounts for creates (20),
// BENCH_ONLY=post (just the create run), BENCH_PROBE=1 (also /healthz and /v2/account),
// BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for the API process).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { connect } from '../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../src/db/create-database.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemoCatalog } from '../src/db/seed.ts';
import { createLogger } from '../src/http/logger.ts';
import { startWorker } from '../src/jobs/worker.ts';
import { computeFor, hostingFor } from '../src/runtime.ts';
import { loadConfig } from '../src/config.ts';
import { seedBenchData } from './data.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const children: ChildProcess[] = [];

function spawnTarget(mode: 'hello' | 'app', env: NodeJS.ProcessEnv): Promise<string> {
  const nodeArgs = mode === 'app' && process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'bench/target.ts'), mode], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(`http://127.0.0.1:${String(d).trim()}`));
    child.once('exit', (code) => reject(new Error(`bench target ${mode} exited with ${code}`)));
  });
}

interface Figures { name: string; rps: number; p50: number; p99: number; errors: number }

async function load(name: string, opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  const bad = r.non2xx + r.errors + r.timeouts;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: bad };
}

async function roundTrips(url: string): Promise<number> {
  const probe = connect(url, { max: 10 });
  try {
    let n = 0;
    const until = Date.now() + 3000;
    await Promise.all(Array.from({ length: 10 }, async () => {
      while (Date.now() < until) {
        await sql`SELECT 1`.execute(probe.db);
        n++;
      }
    }));
    return n / 3;
  } finally {
    await probe.close();
  }
}

async function main() {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  if (!adminUrl) {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-bench-'));
    // As root, PostgreSQL runs as `postgres` and must be able to enter the directory.
    await fs.chmod(tmp, 0o755);
    const pg = await startEmbedded(tmp);
    adminUrl = pg.adminUrl;
    stopEmbedded = () => pg.stop();
  }
  const dbName = `hostcloud_bench_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, dbName);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const url = u.toString();
  const database = connect(url, { max: 10 });
  try {
    await migrateToLatest(database.db);
    await seedDemoCatalog(database.db);
    process.stdout.write(`bench: ${DURATION} s per run, ${CONNECTIONS} connections, ${os.cpus().length} CPUs, PostgreSQL ${stopEmbedded ? 'embedded' : 'BENCH_DATABASE_URL'}\n`);
    const data = await seedBenchData(database.db, computeFor({ ...loadConfig(), simDelayMs: 0 }, database.db));
    process.stdout.write(`bench: ${data.listServers} servers in the listed account, ${data.customers.length} paying accounts\n`);

    // The unit everything below is made of: one query's round trip on this machine.
    const trips = await roundTrips(url);
    process.stdout.write(`bench: PostgreSQL round trips (SELECT 1, 10 connections, one process): ${Math.round(trips)}/s\n`);

    const adminToken = `bench-${randomBytes(12).toString('hex')}`;
    const hello = await spawnTarget('hello', {});
    const app = await spawnTarget('app', { DATABASE_URL: url, ADMIN_TOKEN: adminToken });
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });

    const results: Figures[] = [];
    results.push(await load('bare Fastify hello-world (baseline)', { url: `${hello}/hello` }));
    if (process.env.BENCH_PROBE) {
      for (const probe of ['/healthz', '/v2/account']) {
        const f = await load(`probe ${probe}`, { url: `${app}${probe}`, headers: auth(data.listKey) });
        process.stdout.write(`probe ${probe}: ${Math.round(f.rps)} req/s, p50 ${f.p50} ms\n`);
      }
    }
    const only = process.env.BENCH_ONLY;
    if (only === 'post') results.length = 0;
    if (!only) results.push(await load('GET /v2/servers/{id}', { url: `${app}/v2/servers/${data.detailServer}`, headers: auth(data.listKey) }));
    if (!only) results.push(await load('GET /v2/servers page 1 (10,000 servers)', { url: `${app}/v2/servers?page=1`, headers: auth(data.listKey) }));
    const lastPage = Math.ceil(data.listServers / 25);
    if (!only) results.push(await load(`GET /v2/servers page ${lastPage} (late page)`, { url: `${app}/v2/servers?page=${lastPage}`, headers: auth(data.listKey) }));
    let n = 0;
    results.push(await load('POST /v2/servers with Idempotency-Key', {
      url: `${app}/v2/servers`,
      requests: [{
        method: 'POST',
        setupRequest: (req) => {
          const c = data.customers[n++ % data.customers.length]!;
          return {
            ...req,
            headers: { ...auth(c), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ name: `b${n}-${randomBytes(3).toString('hex')}.example.com`, location_id: 1 + (n % 3), plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd' }),
          };
        },
      }],
    }));

    if (only === 'post') {
      for (const r of results) process.stdout.write(`${r.name}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.errors}\n`);
      return;
    }
    const base = results[0]!.rps;
    process.stdout.write('\n| endpoint | requests/s | p50 ms | p99 ms | vs baseline | non-2xx |\n|---|---:|---:|---:|---:|---:|\n');
    for (const r of results) {
      process.stdout.write(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${((r.rps / base) * 100).toFixed(0)} % | ${r.errors} |\n`);
    }
    const p1 = results[2]!.rps;
    const late = results[3]!.rps;
    process.stdout.write(`\nlate page vs page 1: ${((late / p1) * 100).toFixed(0)} % of page 1's throughput\n`);

    // One worker, SIM_DELAY_MS=0, draining the operations the create run queued.
    const queued = await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = 'queued'`.execute(database.db);
    const failedBefore = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = 'failed'`.execute(database.db)).rows[0]!.n;
    const worker = await startWorker({ db: database.db, compute: computeFor({ ...loadConfig(), simDelayMs: 0 }, database.db), hosting: hostingFor({ ...loadConfig(), simDelayMs: 0 }, database.db), config: { ...loadConfig(), workerConcurrency: 10, jobMaintenanceS: 60 }, logger: createLogger('silent') });
    const countDone = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = 'completed'`.execute(database.db)).rows[0]!.n;
    const start = await countDone();
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, DURATION * 1000));
    const done = (await countDone()) - start;
    await worker.stop();
    const failed = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = 'failed'`.execute(database.db)).rows[0]!.n - failedBefore;
    if (failed > 0) process.stdout.write(`bench: warning: ${failed} operations failed during the worker run\n`);
    const seconds = (Date.now() - t0) / 1000;
    process.stdout.write(`worker (1 process, concurrency 10, SIM_DELAY_MS=0): ${(done / seconds).toFixed(0)} operations/s (${done} completed in ${seconds.toFixed(1)} s of ${queued.rows[0]!.n} queued)\n`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await database.close();
    await dropDatabase(adminUrl, dbName).catch(() => {});
    await stopEmbedded?.();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (e) => {
  for (const c of children) c.kill('SIGKILL');
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
