// Boots the real app on a database of this test file's own (a copy of the run's template).
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Database, connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { setIpCooldown } from '../../src/db/queries/ip-pools.ts';
import { setDnsNameservers } from '../../src/db/queries/dns.ts';
import { setStrayWritePolicy } from '../../src/db/transaction.ts';
import { type App, buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logger.ts';
import type { RateLimiter } from '../../src/http/rate-limit.ts';
import type { UndocumentedError } from '../../src/http/route-conventions.ts';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { RUNNERS } from '../../src/core/families.ts';
import { rateLimiterFor, servicesFor } from '../../src/runtime.ts';
import { type Telemetry, createTelemetry, observeDatabase } from '../../src/telemetry/index.ts';

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  adminToken: string;
  /** Every log line the app wrote, as text. */
  logs: string[];
  /** The logger and metrics the app, its worker and its providers report to. */
  telemetry: Telemetry;
  /** A second app on the same database (e.g. to prove a shared rate limit). */
  sibling(overrides?: Partial<Config>): Promise<App>;
  /** The database URL of this test file (for child processes such as `hostcloud worker`). */
  databaseUrl: string;
  /** Stops this app's embedded workers (and its siblings'), e.g. before another compute driver's app starts on the file's database. */
  stopWorkers(): Promise<void>;
}

/**
 * The compute driver of each embedded worker running on this file's database. Workers share the
 * database's job queue, so a worker takes any app's operations: with two drivers at once, each
 * refuses the other's nodes and gives their jobs back (platform.ts), which only slows a test down
 * by a retry delay per refusal. A test about exactly that starts the second worker itself.
 */
const runningWorkers = new Map<Worker, Config['computeDriver']>();

function refuseMixedWorkers(cfg: Config): void {
  const other = cfg.worker === 'embedded' ? [...runningWorkers.values()].find((d) => d !== cfg.computeDriver) : undefined;
  if (other) {
    throw new Error(`an embedded worker with COMPUTE_DRIVER=${other} still runs on this file's database and would take this ${cfg.computeDriver} app's operations too: stopWorkers() it first`);
  }
}

// An admin write outside the transaction of its audit row fails the test that makes it (500).
setStrayWritePolicy('refuse');

const adminUrl = () => {
  const url = process.env.HC_TEST_ADMIN_URL;
  if (!url) throw new Error('run tests with `npm test` (test/run.ts prepares the database)');
  return url;
};

let dbForFile: Promise<{ name: string; url: string }> | undefined;

// Cleanups run once, after every test of the file. `after` is registered here, at import time
// (the file's root context): registered from inside a `before` hook it would run right after it.
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
});

// Every app of every test file holds the server to its own OpenAPI document: an error response
// whose code the route does not declare for that status fails the file (route-conventions.ts).
const undocumented: UndocumentedError[] = [];
after(() => {
  if (undocumented.length === 0) return;
  const lines = [...new Set(undocumented.map((e) => `${e.method} ${e.route} answered ${e.status} ${e.code}`))];
  throw new Error(`error responses not declared in the OpenAPI document (add the code to the route's errorResponses()):\n  ${lines.join('\n  ')}`);
});

function fileDatabase() {
  dbForFile ??= (async () => {
    const name = `${process.env.HC_TEST_PREFIX}_${randomBytes(5).toString('hex')}`;
    await ensureDatabase(adminUrl(), name, process.env.HC_TEST_TEMPLATE);
    const u = new URL(adminUrl());
    u.pathname = `/${name}`;
    cleanups.push(() => dropDatabase(adminUrl(), name));
    return { name, url: u.toString() };
  })();
  return dbForFile;
}

/**
 * A wait for a database connection that a busy machine does not reach, for files whose parallel
 * bursts (20 creates on a pool of 10) test a rule, not the pool: there, requests that waited past
 * the default 5 s for a free connection were answered 503, as DATABASE_CONNECT_TIMEOUT_MS says,
 * and "exactly 3 created, 17 refused" counted them.
 */
export const BUSY_MACHINE_CONNECT_WAIT_MS = 60_000;

export async function startApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const logs: string[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { logs.push(String(chunk)); cb(); } });
  const config: Config = {
    ...loadConfig({}),
    publicUrl: 'http://api.test',
    rateLimitMax: 10_000,
    simDelayMs: 0,
    logLevel: 'info',
    worker: 'off',
    // Quick retries and loss detection, so failure paths finish within a test's time.
    jobRetryDelayS: 1,
    jobMaintenanceS: 1,
    // An idle worker looks for new operations every 50 ms, not every 500: tests wait on many
    // operations one after another.
    workerPollMs: 50,
    // Billing passes run when a test asks for them (POST /admin/v1/billing/run), not on a timer.
    billingIntervalS: 86_400,
    // Released addresses are leased again at once unless a test is about the cool-down.
    ipCooldownS: 0,
    // Likewise payment sweeps (sweepPayments at a chosen instant), not every minute.
    paymentSweepIntervalS: 3600,
    // A live read of a simulated upstream (the hosting panel's login link or disk usage, a server's
    // state) answers at once, but on a machine busy with other files it missed the 2 s default: a
    // 502 where a test meant the route's answer (route-security's walk of every route). A test about
    // an upstream's deadline sets its own.
    providerTimeoutMs: 30_000,
    // A request waits this long for a database connection (a new one: a backend forked and
    // authenticated) before it is answered 503, as DATABASE_CONNECT_TIMEOUT_MS says. At the 5 s
    // default a loaded machine answered a test's plain setup call (create account) 503; a test
    // about that wait, or the 503 after it, sets its own.
    databaseConnectTimeoutMs: BUSY_MACHINE_CONNECT_WAIT_MS,
    ...overrides,
  };
  // Before anything is opened, so a refused app leaves nothing running.
  refuseMixedWorkers(config);
  const { url } = await fileDatabase();
  // The pool as the app's settings make it in production (runtime.ts openStore): its waits are the config's.
  const database = connect(url, { connectTimeoutMs: config.databaseConnectTimeoutMs, statementTimeoutMs: config.databaseStatementTimeoutMs });
  await setIpCooldown(database.db, config.ipCooldownS);
  await setDnsNameservers(database.db, config.dnsNameservers);
  const adminToken = `test-admin-${randomBytes(8).toString('hex')}`;
  // Each file its own budgets in a shared Redis, unless the test picks a prefix (RATE_LIMIT_PREFIX).
  config.rateLimitPrefix = overrides.rateLimitPrefix ?? `hct:${randomBytes(6).toString('hex')}`;
  const limiters: RateLimiter[] = [];
  const apps: App[] = [];
  // One telemetry per file's database, as one per process in production: siblings share it.
  const telemetry = createTelemetry(createLogger(config.logLevel, sink));
  observeDatabase(telemetry, database);
  const make = async (cfg: Config) => {
    refuseMixedWorkers(cfg);
    const rateLimiter = rateLimiterFor(cfg);
    limiters.push(rateLimiter);
    // A shared budget is shared only once Redis is connected (before, each app limits on its own).
    if (cfg.redisUrl) await rateLimiter.ready(1_000);
    const app = await buildApp({
      config: cfg, db: database.db, rateLimiter, adminToken, telemetry, services: servicesFor(cfg, database.db, telemetry),
      onUndocumentedError: (e) => {
        undocumented.push(e);
        process.stderr.write(`undocumented error response: ${e.method} ${e.route} ${e.status} ${e.code}\n`);
      },
    });
    apps.push(app);
    if (cfg.worker === 'embedded') {
      const worker = await startWorker({ db: database.db, ...servicesFor(cfg, database.db, telemetry, { worker: true }), runners: RUNNERS, config: cfg, logger: telemetry.logger, metrics: telemetry.metrics, renderEvent: renderV2Event });
      workers.push(worker);
      runningWorkers.set(worker, cfg.computeDriver);
    }
    return app;
  };
  const workers: Worker[] = [];
  const stopWorkers = async () => {
    for (const w of workers.splice(0)) {
      await w.stop();
      runningWorkers.delete(w);
    }
  };
  const app = await make(config);
  cleanups.push(async () => {
    await stopWorkers();
    for (const a of apps) await a.close();
    for (const l of limiters) await l.close();
    await database.close();
  });
  return { app, database, config, adminToken, logs, telemetry, sibling: (o = {}) => make({ ...config, ...o }), databaseUrl: url, stopWorkers };
}

export interface Call {
  key?: string;
  ip?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export async function call(app: App, method: InjectOptions['method'], url: string, c: Call = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    remoteAddress: c.ip ?? '127.0.0.1',
    headers: { ...(c.key ? { authorization: `Bearer ${c.key}` } : {}), ...c.headers },
    ...(c.query ? { query: c.query } : {}),
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
}

/** JSON body of a response, typed loosely for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function json(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

export interface Customer {
  accountId: string;
  key: string;
  keyId: string;
}

/** An account (optionally funded) with one API key, made through the admin API like an operator would. */
export async function createCustomer(t: TestApp, opts: {
  deposit?: string;
  ipAllowlist?: string[];
  isTest?: boolean;
  scopes?: string[];
  email?: string;
} = {}): Promise<Customer> {
  const admin = { authorization: `Bearer ${t.adminToken}` };
  const email = opts.email ?? `c-${randomBytes(6).toString('hex')}@example.com`;
  const acc = await t.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: admin, payload: { email, name: 'Test Customer' } });
  if (acc.statusCode !== 201) throw new Error(`create account: ${acc.statusCode} ${acc.body}`);
  const accountId = json(acc).data.id as string;
  if (opts.deposit) {
    const d = await t.app.inject({ method: 'POST', url: `/admin/v1/accounts/${accountId}/deposits`, headers: admin, payload: { amount: opts.deposit } });
    if (d.statusCode !== 201) throw new Error(`deposit: ${d.statusCode} ${d.body}`);
  }
  const k = await t.app.inject({
    method: 'POST', url: `/admin/v1/accounts/${accountId}/api-keys`, headers: admin,
    payload: { name: 'test', ip_allowlist: opts.ipAllowlist ?? ['127.0.0.1', '::1'], is_test: opts.isTest ?? false, ...(opts.scopes ? { scopes: opts.scopes } : {}) },
  });
  if (k.statusCode !== 201) throw new Error(`create key: ${k.statusCode} ${k.body}`);
  return { accountId, key: json(k).data.key, keyId: json(k).data.id };
}

export function adminCall(t: TestApp, method: InjectOptions['method'], url: string, body?: unknown) {
  return call(t.app, method, url, { headers: { authorization: `Bearer ${t.adminToken}` }, body });
}

/** Polls an operation until it is completed or failed (the embedded test worker runs it). */
export async function waitForOperation(t: TestApp, key: string, id: string, timeoutMs = 30_000): Promise<{ status: string; detail: string; [k: string]: unknown }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(t.app, 'GET', `/v2/operations/${id}`, { key });
    const op = json(res).data;
    if (res.statusCode !== 200) throw new Error(`operation ${id}: ${res.statusCode} ${res.body}`);
    if (op.status === 'completed' || op.status === 'failed') return op;
    if (Date.now() > deadline) throw new Error(`operation ${id} still ${op.status} after ${timeoutMs} ms: ${op.detail}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
