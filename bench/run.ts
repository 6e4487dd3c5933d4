// `npm run bench`: loopback load tests of the hot paths against the database's own ceiling, and
// the throughput of the worker. Every figure is also given as a ratio to *db1*: a bare Fastify
// route doing ONE indexed SELECT through pg on the same database with the same pool size.
// PostgreSQL: BENCH_DATABASE_URL (a server; a fresh database is made on it) or an embedded one in
// a temporary directory. Options (env): BENCH_QUICK=1 (a few minutes: 5 s runs, 100 × 1,000
// listed servers, 600 operations per worker run), BENCH_DURATION_S per run (default 10), BENCH_CONNECTIONS (32),
// BENCH_LIST_ACCOUNTS × BENCH_LIST_PER_ACCOUNT listed servers (100 × 10,000), BENCH_ACCOUNTS paying
// accounts for creates (20), BENCH_BACKLOG operations per worker run (3,000), BENCH_WORKERS
// (1,2,4), BENCH_ONLY (some of hello,balance,detail,list,post,domains,worker,webhooks,epp,dns,lxd,hosting,cold; db1 always
// runs, db2 and db-detail with detail), BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for the API process). The
// targets run bundled (dist/bench/target.mjs, built first), as `npm start` runs the API.
// BENCH_TARGET_LOG=warn makes the API target log (to stderr) what it refused and why.
// BENCH_KEEP_DB=1 keeps the bench's database (with BENCH_DATABASE_URL) to look into afterwards.
// Events: server creates run twice with the ledger's event trigger off and on, alternated (events
// written per second, and the create's throughput either way). Webhooks (bench/webhooks.ts): one
// worker's deliveries/s to a local receiver on a backlog of BENCH_WEBHOOK_BACKLOG (10,000) over 20
// endpoints, and commit-to-receipt latency at BENCH_WEBHOOK_RATE (100) events/s; BENCH_WORKER_NODE_ARGS
// (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") for that worker. The worker runs of 1 process are made
// twice, the operations' event trigger off then on (what writing events costs the worker).
// DNS (bench/dns.ts): record writes/s through the API and commit-to-answer latency at BENCH_DNS_RATE (100)
// writes/s, against a PowerDNS this bench starts when it is installed (the simulated driver otherwise).
// EPP (bench/epp.ts): registrations/s through the API over EPP to the test registry with
// EPP_SESSIONS=1 and 2 (BENCH_EPP_REGISTRATIONS each, 300).
// Every run also prints the CPU each request costs (bench/cpu.ts): the process under load, its
// PostgreSQL backends, the load generator and the whole machine, and what that leaves reachable.
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
import { computeFor } from '../src/runtime.ts';
import { loadConfig } from '../src/config.ts';
import { SEMI_SPACE_MB } from '../src/cli/heap.ts';
import { makeBacklog, seedBenchData } from './data.ts';
import { lxdBench } from './lxd.ts';
import { hostingBench } from './hosting.ts';
import { cpuSample, cpuSpent } from './cpu.ts';
import { coldStart, peakRssMb, rssMb, unfinishedOperations, workerRun } from './processes.ts';
import { webhookBench } from './webhooks.ts';
import { eppBench } from './epp.ts';
import { dnsBench } from './dns.ts';
import type { Db } from '../src/core/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = Boolean(process.env.BENCH_QUICK);
const DURATION = Number(process.env.BENCH_DURATION_S ?? (QUICK ? 5 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const LIST_ACCOUNTS = Number(process.env.BENCH_LIST_ACCOUNTS ?? 100);
const PER_ACCOUNT = Number(process.env.BENCH_LIST_PER_ACCOUNT ?? (QUICK ? 1_000 : 10_000));
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? (QUICK ? 600 : 3_000));
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const runs = (what: string) => !ONLY || ONLY.has(what);
const children: ChildProcess[] = [];
const out = (s: string) => process.stdout.write(`${s}\n`);

/**
 * The targets run bundled like `npm start` runs the API (scripts/build.mjs: esbuild, dependencies
 * external), so that RSS and CPU are those of production rather than of the tsx loader.
 */
// Two levels under the root, as dist/cli/main.mjs is: the bundle finds package.json (build info) at ../../.
const TARGET = path.join(root, 'dist/bench/target.mjs');
async function buildTarget(): Promise<void> {
  const { build } = await import('esbuild');
  // @ts-expect-error -- plain JavaScript shared with scripts/build.mjs, no declarations
  const { BUNDLE_OPTIONS } = await import('../bin/build-state.js');
  await build({ ...(BUNDLE_OPTIONS as object), entryPoints: [path.join(root, 'bench/target.ts')], outfile: TARGET, logLevel: 'warning' });
  // `npm start` (the cold start) builds dist/cli/main.mjs itself if it is not fresh; built here, it is not timed.
  await new Promise<void>((resolve, reject) => spawn(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
    .once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/build.mjs exited with ${code}`)))));
}

interface Target { url: string; pid: number; counter?: string; /** What its connections call themselves, so their backends can be found. */ app: string }

function spawnTarget(mode: 'hello' | 'db1' | 'app', env: NodeJS.ProcessEnv): Promise<Target> {
  // The API runs with the young generation `npm start` gives it; BENCH_NODE_ARGS come after, so
  // they can set another.
  const nodeArgs = mode === 'app' ? [`--max-semi-space-size=${SEMI_SPACE_MB}`, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)] : [];
  const app = `hostcloud-bench-${mode}`;
  const child = spawn(process.execPath, [...nodeArgs, TARGET, mode], { cwd: root, env: { ...process.env, PGAPPNAME: app, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let said = '';
    child.stdout!.on('data', (d) => {
      said += String(d);
      if (!said.includes('\n')) return;
      const ports = said.trim().split(' ');
      resolve({ url: `http://127.0.0.1:${ports.at(-1)}`, pid: child.pid!, app, counter: ports.length > 1 ? `http://127.0.0.1:${ports[0]}/queries` : undefined });
    });
    child.once('exit', (code) => reject(new Error(`bench target ${mode} exited with ${code}`)));
  });
}

/**
 * What the worker's CPU per operation (its own and its database backends') allows on this
 * machine's cores, however the work were spread: the bound that says whether more processes, or
 * a faster worker on its own, could reach a figure.
 */
function workerCeiling(cpu: { worker: number; database: number }): string {
  return Math.round((os.cpus().length * 1000) / (cpu.worker + cpu.database)).toLocaleString('en-US');
}

interface Figures {
  name: string; rps: number; p50: number; p99: number; errors: number;
  /** CPU µs per request: the process under load, its PostgreSQL backends, the load generator, the whole machine (null without /proc). */
  cpu: { process: number; database: number; load: number; machine: number | null } | null;
  /** Share of the machine's cores busy during the run (null without /proc). */
  busy: number | null;
}

function key(name: string): string {
  if (name.startsWith('db2') || name.startsWith('db-detail')) return 'detail';
  if (name.includes('hello')) return 'hello';
  if (name.includes('balance')) return 'balance';
  if (name.includes('{id}')) return 'detail';
  if (name.includes('GET /v2/servers')) return 'list';
  if (name.includes('domains')) return 'domains';
  return 'post';
}

async function load(db: Db, name: string, target: Target, opts: autocannon.Options): Promise<Figures> {
  if (!name.startsWith('db1') && !runs(key(name))) return { name, rps: NaN, p50: NaN, p99: NaN, errors: 0, cpu: null, busy: null };
  const before = await cpuSample(db, target.app, [target.pid]);
  // The process's largest resident set during the run (VmHWM says it for the whole life only).
  let rssMax = 0;
  const sampler = setInterval(() => void rssMb(target.pid).then((mb) => { rssMax = Math.max(rssMax, mb ?? 0); }), 100);
  const r = await Promise.resolve(autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts })).finally(() => clearInterval(sampler));
  const spent = cpuSpent(before, await cpuSample(db, target.app, [target.pid]));
  const bad = r.non2xx + r.errors + r.timeouts;
  const us = (s: number) => (s * 1e6) / Math.max(1, r.requests.total);
  const cpu = before.byPid.size ? { process: us(spent.process), database: us(spent.database), load: us(spent.self), machine: spent.machine === null ? null : us(spent.machine) } : null;
  const busy = spent.machine === null ? null : spent.machine / r.duration / os.cpus().length; // duration: seconds
  const f = { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: bad, cpu, busy };
  out(`bench: ${name}: ${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, non-2xx ${bad}, RSS up to ${rssMax.toFixed(0)} MB (load ${os.loadavg()[0]!.toFixed(2)})${cpu ? `; CPU per request: ${cpuLine(cpu)}` : ''}`);
  return f;
}

/**
 * Where each request's CPU goes, and what that allows: with the cores busy, requests/s is about
 * cores ÷ CPU per request, so a route can reach at most db1's CPU per request ÷ its own × db1. The
 * last column is that bound if the route's process cost no more than db1's process: what its
 * database work and the load generator alone leave room for.
 */
function cpuTable(results: Figures[], base: Figures): string {
  const total = (c: NonNullable<Figures['cpu']>) => c.machine ?? c.process + c.database + c.load;
  if (!base.cpu) return 'CPU per request: n/a (no /proc)';
  const rows = results.filter((r) => r.cpu).map((r) => {
    const c = r.cpu!;
    const bound = total(base.cpu!) / (total(c) - c.process + base.cpu!.process);
    return `| ${r.name} | ${c.process.toFixed(0)} | ${c.database.toFixed(0)} | ${c.load.toFixed(0)} | ${c.machine === null ? 'n/a' : c.machine.toFixed(0)} | ${r.busy === null ? 'n/a' : `${(r.busy * 100).toFixed(0)} %`} | ${(total(base.cpu!) / total(c)).toFixed(2)} | ${bound.toFixed(2)} |`;
  });
  return `\nCPU per request, µs (process under load, its PostgreSQL backends, the load generator, the whole machine)\n`
    + `| endpoint | process | database | load gen. | machine | cores busy | db1's ÷ this | × db1 at db1's process cost |\n|---|---:|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}\n`;
}

function cpuLine(c: NonNullable<Figures['cpu']>): string {
  return `process ${c.process.toFixed(0)} µs, its database backends ${c.database.toFixed(0)} µs, load generator ${c.load.toFixed(0)} µs${c.machine === null ? '' : `, whole machine ${c.machine.toFixed(0)} µs`}`;
}

/** PostgreSQL round trips of one request (the second of two, so caches are warm). */
async function tripsOf(counter: string, url: string, make: () => RequestInit): Promise<number> {
  const count = async () => ((await (await fetch(counter)).json()) as { queries: number }).queries;
  await fetch(url, make());
  // The least of three: anything else the process does meanwhile (a key's last_used_at) is not the route's.
  let least = Infinity;
  for (let i = 0; i < 3; i++) {
    const before = await count();
    const res = await fetch(url, make());
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    least = Math.min(least, (await count()) - before);
  }
  return least;
}

async function main() {
  const started = Date.now();
  await buildTarget();
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
    out(`bench: ${DURATION} s per run, ${CONNECTIONS} connections, ${os.cpus().length} CPUs, PostgreSQL ${stopEmbedded ? 'embedded' : 'BENCH_DATABASE_URL'}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const compute = computeFor({ ...loadConfig(), simDelayMs: 0 }, database.db);
    const data = await seedBenchData(database.db, compute, { accounts: LIST_ACCOUNTS, perAccount: PER_ACCOUNT });
    out(`bench: ${LIST_ACCOUNTS * PER_ACCOUNT} servers (${LIST_ACCOUNTS} accounts × ${PER_ACCOUNT}) bulk-inserted in ${data.bulkS.toFixed(1)} s; ${data.customers.length} paying accounts`);

    const adminToken = `bench-${randomBytes(12).toString('hex')}`;
    const hello = await spawnTarget('hello', {});
    const db1 = await spawnTarget('db1', { DATABASE_URL: url });
    const app = await spawnTarget('app', { DATABASE_URL: url, ADMIN_TOKEN: adminToken });
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });

    const results: Figures[] = [];
    results.push(await load(database.db, 'bare Fastify hello-world', hello, { url: `${hello.url}/hello` }));
    const base = await load(database.db, 'db1: bare Fastify + ONE indexed SELECT (pg)', db1, { url: `${db1.url}/db1/${data.listAccount}` });
    results.push(base);
    results.push(await load(database.db, 'db2: bare Fastify + TWO indexed SELECTs in turn (pg, named)', db1, { url: `${db1.url}/db2/${data.listAccount}/${data.detailServer}` }));
    results.push(await load(database.db, "db-detail: bare Fastify + the server detail's two statements (the API's database layer)", db1, { url: `${db1.url}/db-detail/${data.listAccount}/${data.detailServer}` }));
    // The API's first requests run before V8 has optimised its code: one untimed second of each GET
    // route, so that whichever route is measured first (BENCH_ONLY) is not charged for that.
    for (const [what, url] of [['balance', '/v2/billing/balance'], ['detail', `/v2/servers/${data.detailServer}`], ['list', '/v2/servers?page=1']] as const) {
      if (runs(what)) await autocannon({ connections: CONNECTIONS, duration: 1, url: `${app.url}${url}`, headers: auth(data.listKey) });
    }
    results.push(await load(database.db, 'GET /v2/billing/balance', app, { url: `${app.url}/v2/billing/balance`, headers: auth(data.listKey) }));
    results.push(await load(database.db, 'GET /v2/servers/{id}', app, { url: `${app.url}/v2/servers/${data.detailServer}`, headers: auth(data.listKey) }));
    const page1 = await load(database.db, `GET /v2/servers page 1 (${PER_ACCOUNT} of the account's)`, app, { url: `${app.url}/v2/servers?page=1`, headers: auth(data.listKey) });
    results.push(page1);
    const lastPage = Math.ceil(PER_ACCOUNT / 25);
    const late = await load(database.db, `GET /v2/servers page ${lastPage} (late page)`, app, { url: `${app.url}/v2/servers?page=${lastPage}`, headers: auth(data.listKey) });
    results.push(late);
    // Pages in the older half are read from the oldest end: the middle page walks the most index
    // entries (half the account's), so it is the deepest a page goes and is measured too.
    const middlePage = Math.ceil(lastPage / 2);
    const middle = await load(database.db, `GET /v2/servers page ${middlePage} (middle page, the deepest walk)`, app, { url: `${app.url}/v2/servers?page=${middlePage}`, headers: auth(data.listKey) });
    results.push(middle);
    let n = 0;
    const customerFor = () => data.customers[n++ % data.customers.length]!;
    const createServers = {
      url: `${app.url}/v2/servers`,
      requests: [{
        method: 'POST' as const,
        setupRequest: (req: autocannon.Request) => {
          const c = customerFor();
          return {
            ...req,
            headers: { ...auth(c.key), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ name: `b${n}-${randomBytes(3).toString('hex')}.example.com`, location_id: 1 + (n % 3), plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd' }),
          };
        },
      }],
    };
    // Events written alongside creates (each create's charge is a ledger row, which writes
    // billing.charge_succeeded in its statement): the create's throughput with the ledger's event
    // trigger switched off, then on, alternated twice so the machine's drift falls on both.
    const eventCount = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM events`.execute(database.db)).rows[0]!.n;
    const withEvents: Figures[] = [];
    const withoutEvents: Figures[] = [];
    let eventsWritten = 0;
    let eventSeconds = 0;
    for (const round of runs('post') ? [1, 2] : []) {
      await sql`ALTER TABLE transactions DISABLE TRIGGER transactions_event`.execute(database.db);
      try {
        withoutEvents.push(await load(database.db, `POST /v2/servers with Idempotency-Key, events off (round ${round})`, app, createServers));
      } finally {
        await sql`ALTER TABLE transactions ENABLE TRIGGER transactions_event`.execute(database.db);
      }
      const before = await eventCount();
      const started = Date.now();
      const on = await load(database.db, `POST /v2/servers with Idempotency-Key (round ${round})`, app, createServers);
      eventSeconds += (Date.now() - started) / 1000;
      eventsWritten += (await eventCount()) - before;
      withEvents.push(on);
    }
    const mean = (list: Figures[]) => list.reduce((s, f) => s + f.rps, 0) / Math.max(1, list.length);
    if (withEvents.length) results.push({ ...withEvents[0]!, name: 'POST /v2/servers with Idempotency-Key', rps: mean(withEvents) });
    const eventsLine = withEvents.length
      ? `events alongside server creates: ${eventsWritten} written in ${eventSeconds.toFixed(1)} s (${Math.round(eventsWritten / eventSeconds)}/s); creates with events ${Math.round(mean(withEvents))} req/s vs ${Math.round(mean(withoutEvents))} req/s without (${(mean(withEvents) / mean(withoutEvents)).toFixed(3)} ×, two alternated rounds each)`
      : null;
    results.push(await load(database.db, 'POST /v2/domains with Idempotency-Key', app, {
      url: `${app.url}/v2/domains`,
      requests: [{
        method: 'POST',
        setupRequest: (req) => {
          const c = customerFor();
          return {
            ...req,
            headers: { ...auth(c.key), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ domain: `bench-${randomBytes(8).toString('hex')}.com`, years: 1 }),
          };
        },
      }],
    }));
    const rss = await peakRssMb(app.pid);
    // Requests still in flight when the last run stopped finish first.
    await new Promise((r) => setTimeout(r, 2_000));
    const c0 = data.customers[0]!;
    const get = (key: string) => () => ({ headers: auth(key) });
    const post = (body: () => unknown) => () => ({ method: 'POST', headers: { ...auth(c0.key), 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify(body()) });
    const trips = [
      ['balance', await tripsOf(app.counter!, `${app.url}/v2/billing/balance`, get(data.listKey))],
      ['server detail', await tripsOf(app.counter!, `${app.url}/v2/servers/${data.detailServer}`, get(data.listKey))],
      ['list page 1', await tripsOf(app.counter!, `${app.url}/v2/servers?page=1`, get(data.listKey))],
      ['create server', await tripsOf(app.counter!, `${app.url}/v2/servers`, post(() => ({ name: `t-${randomBytes(4).toString('hex')}.example.com`, location_id: 1, plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd' })))],
      ['register domain', await tripsOf(app.counter!, `${app.url}/v2/domains`, post(() => ({ domain: `trip-${randomBytes(6).toString('hex')}.com`, years: 1 })))],
    ];

    out(`\n| endpoint | requests/s | p50 ms | p99 ms | × db1 | non-2xx |\n|---|---:|---:|---:|---:|---:|`);
    for (const r of results) out(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / base.rps).toFixed(2)} | ${r.errors} |`);
    out('');
    out(cpuTable(results, base));
    out(`late page vs page 1: ${(late.rps / page1.rps).toFixed(2)} × page 1`);
    out(`middle page vs page 1: ${(middle.rps / page1.rps).toFixed(2)} × page 1`);
    out(`PostgreSQL round trips per request (warm): ${trips.map(([k, v]) => `${k} ${v}`).join(', ')} (db1: 1)`);
    out(`API peak RSS under load: ${rss === null ? 'n/a' : `${rss.toFixed(0)} MB`}`);
    if (eventsLine) out(eventsLine);
    for (const c of children.splice(0)) c.kill('SIGTERM');

    // Worker processes on a backlog of queued server creates, made through the core (not timed).
    // What the create runs queued (server creates and domain registrations, a mix) is drained first,
    // untimed, so that every run measures the same backlog.
    const leftover = runs('worker') ? await unfinishedOperations(database.db) : 0;
    if (leftover > 0) {
      const drained = await workerRun(root, database.db, url, 2, 600);
      out(`worker: drained the ${leftover} operations the create runs queued first (not counted; ${drained.seconds.toFixed(1)} s)`);
    }
    // What events cost the worker: one run of its first size with the trigger that writes an
    // operation's events at its commit switched off, before the runs as usual.
    if (runs('worker')) {
      const procs = WORKERS[0]!;
      await makeBacklog(database.db, compute, data.customers, BACKLOG, `${procs}-noevents`);
      await sql`VACUUM ANALYZE`.execute(database.db);
      await sql`ALTER TABLE operations DISABLE TRIGGER operations_finished_events`.execute(database.db);
      try {
        const w = await workerRun(root, database.db, url, procs, DURATION * 2);
        out(`worker: ${procs} process${procs > 1 ? 'es' : ''}, events off (SIM_DELAY_MS=0): ${w.opsPerS.toFixed(0)} operations/s (${w.completed} completed in ${w.seconds.toFixed(1)} s) (load ${os.loadavg()[0]!.toFixed(2)})${w.cpuMsPerOp ? `; CPU per operation: worker ${w.cpuMsPerOp.worker.toFixed(2)} ms, its database backends ${w.cpuMsPerOp.database.toFixed(2)} ms` : ''}`);
      } finally {
        await sql`ALTER TABLE operations ENABLE TRIGGER operations_finished_events`.execute(database.db);
      }
    }
    for (const procs of runs('worker') ? WORKERS : []) {
      await makeBacklog(database.db, compute, data.customers, BACKLOG, `${procs}`);
      // What autovacuum would have done by now (it is off on some servers, node-svc's among them):
      // without it the queue's index keeps every job ever taken and the simulated platform's few
      // hot rows spread over pages, and generic plans on tables never analyzed choose scans.
      await sql`VACUUM ANALYZE`.execute(database.db);
      const w = await workerRun(root, database.db, url, procs, DURATION * 2);
      out(`worker: ${procs} process${procs > 1 ? 'es' : ''} (SIM_DELAY_MS=0): ${w.opsPerS.toFixed(0)} operations/s (${w.completed} completed in ${w.seconds.toFixed(1)} s${w.failed ? `, ${w.failed} FAILED` : ''}) = ${(w.opsPerS / base.rps).toFixed(3)} × db1 (load ${os.loadavg()[0]!.toFixed(2)})${w.cpuMsPerOp ? `; CPU per operation: worker ${w.cpuMsPerOp.worker.toFixed(2)} ms, its database backends ${w.cpuMsPerOp.database.toFixed(2)} ms, so at most ${workerCeiling(w.cpuMsPerOp)} operations/s with every core busy` : ''}`);
    }
    if (runs('webhooks')) {
      const w = await webhookBench(root, database.db, url, data.customers[0]!.accountId, {
        backlog: Number(process.env.BENCH_WEBHOOK_BACKLOG ?? (QUICK ? 3_000 : 10_000)), endpoints: 20,
        rate: Number(process.env.BENCH_WEBHOOK_RATE ?? 100), seconds: QUICK ? 5 : 10,
      });
      const cpu = w.cpuUs;
      out(`webhooks: one worker delivered ${w.backlog} to ${w.endpoints} endpoints of a local receiver in ${w.drainS.toFixed(1)} s: ${Math.round(w.deliveriesPerS)} deliveries/s = ${(w.deliveriesPerS / base.rps).toFixed(2)} × db1 (load ${os.loadavg()[0]!.toFixed(2)})`
        + (cpu ? `; CPU per delivery: worker ${cpu.worker.toFixed(0)} µs, its database backends ${cpu.database.toFixed(0)} µs, the receiver ${cpu.receiver.toFixed(0)} µs, so at most ${Math.round((os.cpus().length * 1e6) / (cpu.worker + cpu.database + cpu.receiver))} deliveries/s with every core busy` : ''));
      out(`webhooks: at ${w.rate} events/s, commit to receipt over ${w.steadyEvents} events: p50 ${w.p50Ms.toFixed(0)} ms, p99 ${w.p99Ms.toFixed(0)} ms, max ${w.maxMs.toFixed(0)} ms`);
    }
    if (runs('epp')) {
      const count = Number(process.env.BENCH_EPP_REGISTRATIONS ?? (QUICK ? 100 : 300));
      for (const sessions of [1, 2]) {
        const e = await eppBench(root, database.db, url, sessions, count);
        out(`epp: ${e.count} registrations through the API over EPP (test registry, TLS, EPP_SESSIONS=${sessions}): ${e.perS.toFixed(1)} registrations/s (${e.seconds.toFixed(1)} s from the first request to the last domain active) (load ${os.loadavg()[0]!.toFixed(2)})`);
      }
    }
    if (runs('dns')) {
      const d = await dnsBench(root, database.db, url, data.customers[0]!.key, (env) => spawnTarget('app', { DATABASE_URL: url, ADMIN_TOKEN: adminToken, ...env }), {
        seconds: QUICK ? 5 : DURATION, rate: Number(process.env.BENCH_DNS_RATE ?? 100), clients: Number(process.env.BENCH_DNS_CLIENTS ?? 16),
      }, out);
      out(`dns (${d.driver}): ${Math.round(d.writesPerS)} record writes/s through the API by ${d.clients} clients (${d.writes} written, ${d.refused} refused with 503) (load ${os.loadavg()[0]!.toFixed(2)})`);
      out(`dns (${d.driver}): at ${d.rate} writes/s, commit to ${d.driver === 'powerdns' ? 'answered by PowerDNS' : 'pushed (simulated)'} over ${d.measured} records: p50 ${d.p50Ms.toFixed(0)} ms, p99 ${d.p99Ms.toFixed(0)} ms, max ${d.maxMs.toFixed(0)} ms${d.unanswered ? `, ${d.unanswered} NOT ANSWERED within 30 s` : ''}`);
    }
    if (runs('lxd')) await lxdBench(database.db, out);
    if (runs('hosting')) await hostingBench(database.db, out);
    if (runs('cold')) out(`cold start of \`npm start\` (embedded PostgreSQL, fresh DATA_DIR): ${(await coldStart(root)).toFixed(1)} s`);
    out(`bench: done in ${((Date.now() - started) / 1000).toFixed(0)} s; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await database.close();
    if (process.env.BENCH_KEEP_DB) out(`bench: database kept: ${url}`);
    else await dropDatabase(adminUrl, dbName).catch(() => {});
    await stopEmbedded?.();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (e) => {
  for (const c of children) c.kill('SIGKILL');
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
