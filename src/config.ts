// Settings come from the environment only. Every setting documents its default here and in
// the README's settings table; a malformed value stops the process with a clear message
// rather than running with a surprise.
import path from 'node:path';
import { MAX_AMOUNT_CENTS, parseAmount } from './core/money.ts';
import { normaliseEntry } from './core/api-keys/ip-allowlist.ts';
import { DEFAULT_RETRY_SCHEDULE_S } from './core/webhooks/schedule.ts';
import type { LogFormat } from './http/logger.ts';

export interface Config {
  /** PORT — listen port. Default 8080. */
  port: number;
  /** HOST — listen address. Default 127.0.0.1 (not exposed beyond the machine by accident). */
  host: string;
  /** PUBLIC_URL — origin used in `doc_url` and links. Default http://localhost:$PORT. */
  publicUrl: string;
  /** DATABASE_URL — PostgreSQL to use. Unset → embedded PostgreSQL under DATA_DIR/pg. */
  databaseUrl: string | undefined;
  /**
   * SEED_DEMO — seed the demo catalog, nodes, IP pools and seller at start. Default true with the
   * embedded database (no DATABASE_URL), false with DATABASE_URL: a production database starts
   * empty (GET /admin/v1/setup says what to add).
   */
  seedDemo: boolean;
  /** DATA_DIR — embedded database and local state. Default ./data. */
  dataDir: string;
  /** ADMIN_TOKEN — bearer token of the admin API. Unset → generated once into DATA_DIR/admin-token. */
  adminToken: string | undefined;
  /**
   * METRICS_TOKEN — a bearer token that reads `GET /metrics` (of `serve`, and of `worker` on
   * WORKER_METRICS_PORT) and nothing else, for Prometheus. Unset → only the admin token reads them.
   */
  metricsToken: string | undefined;
  /** BUILD_COMMIT — the commit this installation runs, for `hostcloud_build_info`. Unset → read from git when the installation is a checkout, else `unknown`. */
  buildCommit: string | undefined;
  /** REDIS_URL — shared rate-limit store. Unset → in-process limiter. */
  redisUrl: string | undefined;
  /** RATE_LIMIT_MAX — requests per key (or per IP before authentication) per window. Default 600. */
  rateLimitMax: number;
  /** RATE_LIMIT_WINDOW_S — window length in seconds. Default 60. */
  rateLimitWindowS: number;
  /**
   * RATE_LIMIT_PREFIX — the Redis key prefix of the rate-limit budgets. Processes of one
   * installation must share it (one budget); installations sharing a Redis must not. Default
   * `hostcloud:rl:<database name>` (the database of DATABASE_URL, or `hostcloud` when embedded).
   */
  rateLimitPrefix: string;
  /** TRUST_PROXY — comma-separated proxy addresses/CIDRs (or loopback, linklocal, uniquelocal) whose X-Forwarded-For is honoured. Default off. */
  trustProxy: string[] | false;
  /** WORKER — `embedded` runs the worker inside `serve`, `off` does not. Default embedded. */
  worker: 'embedded' | 'off';
  /** SIM_DELAY_MS — base delay of each simulated provider step. Default 2000 (realistic). */
  simDelayMs: number;
  /**
   * WORKER_CONCURRENCY — operations one worker process runs at once. They share the worker's
   * WORKER_POOL_MAX connections: an operation holds one only while a statement of its own runs, so
   * more operations than connections keeps the connections busy while others are between
   * statements. Default 32: one process ran 17–28 % more simulated creates a second on average than
   * at 16, with less CPU per operation, on 18 connections as on 34 (docs/performance.md).
   */
  workerConcurrency: number;
  /**
   * WORKER_POLL_MS — how long an idle worker waits before it looks for queued operations again (a
   * running operation that ends wakes it sooner). Default 500: a new operation waits at most half a
   * second to start, for two cheap index reads a second per idle worker.
   */
  workerPollMs: number;
  /**
   * WORKER_POOL_MAX — connections one worker opens (its operations, its batched completions, its
   * queue); `hostcloud serve`'s embedded worker has a pool of this size apart from the requests'
   * DATABASE_POOL_MAX, so a busy worker never makes a request wait for a connection. Default 18
   * (what 16 operations and the two others held before operations shared them): `serve` with
   * WORKER=off (10) and four `hostcloud worker` processes need 82 of PostgreSQL's default
   * max_connections (100, 3 of them reserved for superusers).
   */
  workerPoolMax: number;
  /**
   * WORKER_METRICS_PORT — where `hostcloud worker` serves GET /metrics (admin token, on HOST).
   * Default: none (no listener; `hostcloud serve` serves its own /metrics on PORT).
   */
  workerMetricsPort: number | null;
  /** JOB_RETRY_LIMIT — retries of an operation after a retryable provider error. Default 5. */
  jobRetryLimit: number;
  /** JOB_RETRY_DELAY_S — first retry delay; later ones back off exponentially. Default 5. */
  jobRetryDelayS: number;
  /**
   * JOB_TIMEOUT_S — the queue's own backstop: a job not finished after this long is failed and
   * retried. Lost workers are found sooner through the operation lease (OPERATION_LEASE_S); this
   * must exceed the slowest provider call, or a healthy run is started again (safe — provider
   * calls carry the operation id — but wasteful). Default 900.
   */
  jobTimeoutS: number;
  /** JOB_MAINTENANCE_S — how often a worker looks for lost operations and expired keys. Default 60. */
  jobMaintenanceS: number;
  /**
   * OPERATION_LEASE_S — a running operation whose worker has not renewed its lease for this long
   * (renewed every third of it) is presumed lost and queued again. Default 30.
   */
  operationLeaseS: number;
  /**
   * DATABASE_CONNECT_TIMEOUT_MS — how long a request waits for a database connection (a new one,
   * or a free one of the pool) before answering 503. Default 5000.
   */
  databaseConnectTimeoutMs: number;
  /**
   * DATABASE_STATEMENT_TIMEOUT_MS — PostgreSQL cancels a statement after this long (503 to the
   * client); a server too frozen to do so is given up on by the client 2 s later. Default 30000.
   */
  databaseStatementTimeoutMs: number;
  /**
   * DATABASE_PREPARED_STATEMENTS — send statements named, so PostgreSQL plans each once per
   * connection (src/db/prepared.ts); `false` behind a transaction-mode pooler that cannot carry
   * them (PgBouncer before 1.21). Default true.
   */
  databasePreparedStatements: boolean;
  /**
   * DATABASE_POOL_MAX — connections `hostcloud serve` opens for its requests; its embedded worker
   * opens WORKER_POOL_MAX more, in a pool of its own. Default 10.
   */
  databasePoolMax: number;
  /** PROVIDER_TIMEOUT_MS — how long a live read (server detail) waits for the provider. Default 2000. */
  providerTimeoutMs: number;
  /** BODY_LIMIT_BYTES — largest accepted request body. Default 1048576 (1 MiB). */
  bodyLimitBytes: number;
  /** LOG_LEVEL — pino level. Default info. */
  logLevel: string;
  /**
   * SMTP_URL — where the worker sends notifications (smtp://user:pass@host:587, smtps://… for TLS
   * from the start; nodemailer's URL options such as ?pool=true apply). Unset → notifications stay
   * queued, listed at GET /admin/v1/notifications, and are sent once it is set.
   */
  smtpUrl: string | undefined;
  /** SMTP_FROM — the From of every notification. Default `Hostcloud <noreply@localhost>`. */
  smtpFrom: string;
  /** MAIL_MAX_ATTEMPTS — sending attempts before a notification is marked failed. Default 5. */
  mailMaxAttempts: number;
  /** MAIL_RETRY_DELAY_S — wait after a failed send; doubled after each further failure (at most 6 h). Default 60. */
  mailRetryDelayS: number;
  /** BILLING_INTERVAL_S — how often each worker runs the billing pass (recurring charges, suspensions, expiries). Default 300. */
  billingIntervalS: number;
  /** SUSPEND_GRACE_DAYS — a service suspended for non-payment is cancelled after this many days unpaid. Default 14. */
  suspendGraceDays: number;
  /** DOMAIN_RENEW_DAYS — domains with auto_renew renew this many days before they expire. Default 30. */
  domainRenewDays: number;
  /** LOG_FORMAT — `json` (one JSON object a line), `pretty` (readable), or `auto`: pretty when stdout is a terminal. Default auto. */
  logFormat: LogFormat;
  /** IP_COOLDOWN_S — how long a released address rests before it is handed out again. Default 3600. */
  ipCooldownS: number;
  /** COMPUTE_DRIVER — `simulated` (the built-in simulated platform) or `lxd` (nodes are LXD servers). Default simulated. */
  computeDriver: 'simulated' | 'lxd';
  /** LXD_PROJECT — the LXD project instances live in, made on each node when missing. Default hostcloud. */
  lxdProject: string;
  /** LXD_INSTANCE_TYPE — `virtual-machine` (KVM, production VPS) or `container`. Default virtual-machine. */
  lxdInstanceType: 'container' | 'virtual-machine';
  /** LXD_STORAGE_POOL — the storage pool of instances' root disks. Default `default`. */
  lxdStoragePool: string;
  /** LXD_CLIENT_CERT / LXD_CLIENT_KEY — the client certificate presented to https nodes. Default DATA_DIR/lxd-client.crt and .key, made at first start. */
  lxdClientCert: string;
  lxdClientKey: string;
  /** PANEL_SIGNUP — `open`: anyone may sign up in the customer panel (email verified by a link); `off`: invitation only. Default off. */
  panelSignup: 'open' | 'off';
  /** PANEL_SESSION_IDLE_S — a panel session unused this long ends. Default 3600 (1 hour). */
  panelSessionIdleS: number;
  /** PANEL_SESSION_MAX_S — a panel session ends this long after sign-in, however active. Default 43200 (12 hours). */
  panelSessionMaxS: number;
  /**
   * PAYMENTS — how customers top up their balance: `simulated` (a checkout page served by this
   * server that pays or declines at a click), `stripe` (Stripe Checkout; needs STRIPE_SECRET_KEY and
   * STRIPE_WEBHOOK_SECRET) or `off` (no top-up; the operator deposits). Default simulated.
   */
  payments: PaymentsMode;
  /** STRIPE_SECRET_KEY — the Stripe API key (`sk_live_…`/`sk_test_…`, or a restricted `rk_…`). Required with PAYMENTS=stripe. */
  stripeSecretKey: string | undefined;
  /** STRIPE_WEBHOOK_SECRET — the signing secret (`whsec_…`) of the endpoint POST /payments/stripe/webhook. Required with PAYMENTS=stripe. */
  stripeWebhookSecret: string | undefined;
  /**
   * STRIPE_API_URL — where the Stripe API is reached (e.g. http://127.0.0.1:12111 for stripe-mock).
   * Default: Stripe's own API.
   */
  stripeApiUrl: string | undefined;
  /**
   * PAYMENT_SWEEP_INTERVAL_S — how often each worker settles payments pending over 5 minutes with
   * the provider, expires those abandoned for 25 hours and finishes pending refunds. Default 60.
   */
  paymentSweepIntervalS: number;
  /** TOPUP_MIN — smallest top-up (what the balance is credited, tax not included). Default 5.00. */
  topupMinCents: number;
  /** TOPUP_MAX — largest top-up. Default 10000.00. */
  topupMaxCents: number;
  /** EVENT_RETENTION_DAYS — events (GET /v2/events) older than this are removed by the worker's hourly maintenance. Default 30. */
  eventRetentionDays: number;
  /** WEBHOOK_ALLOW_HTTP — accept (and deliver to) plain http:// webhook URLs; for development and tests. Default false: https only. */
  webhookAllowHttp: boolean;
  /**
   * WEBHOOK_ALLOW_PRIVATE — accept (and deliver to) webhook URLs on loopback, private, link-local,
   * CGNAT and other non-public addresses; for development and tests. Default false.
   */
  webhookAllowPrivate: boolean;
  /** WEBHOOK_MAX_PER_ACCOUNT — webhook endpoints one account may register. Default 10. */
  webhookMaxPerAccount: number;
  /** WEBHOOK_TIMEOUT_S — a delivery is answered 2xx within this (connection, request and answer), or it failed. Default 15. */
  webhookTimeoutS: number;
  /** WEBHOOK_CONNECT_TIMEOUT_S — the TCP connection to a webhook endpoint is up within this, or the attempt failed. Default 5. */
  webhookConnectTimeoutS: number;
  /** WEBHOOK_CONCURRENCY — webhook deliveries one worker process has in flight at once. Default 100. */
  webhookConcurrency: number;
  /** WEBHOOK_ENDPOINT_CONCURRENCY — at most this many deliveries in flight to one endpoint, across all worker processes (a slow one cannot take the others' turn). Default 10. */
  webhookEndpointConcurrency: number;
  /**
   * WEBHOOK_RETRY_SCHEDULE_S — the waits, in seconds, after each failed attempt (comma-separated);
   * after the last the delivery has failed. Default the Standard Webhooks example: 5,300,1800,7200,
   * 18000,36000,50400,72000,86400 (ten attempts over about 75 hours).
   */
  webhookRetryScheduleS: number[];
  /** WEBHOOK_DISABLE_AFTER_DAYS — an endpoint whose every attempt has failed for this long is disabled (with a notice). Default 5. */
  webhookDisableAfterDays: number;
}

export type PaymentsMode = 'simulated' | 'stripe' | 'off';

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return def;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Comma-separated waits in seconds (decimals allowed), 1 to 20 of them, each at most a week. */
function schedule(env: NodeJS.ProcessEnv, name: string, def: readonly number[]): number[] {
  const raw = str(env, name);
  if (raw === undefined) return [...def];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p) || Number(p) > 604_800)) {
    throw new ConfigError(`${name} must be 1 to 20 comma-separated waits in seconds (each at most 604800), e.g. 5,300,1800; got "${raw}"`);
  }
  return parts.map(Number);
}

function str(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** An amount setting such as TOPUP_MIN=5.00, in cents. */
function amount(env: NodeJS.ProcessEnv, name: string, defCents: number): number {
  const raw = str(env, name);
  if (raw === undefined) return defCents;
  const cents = parseAmount(raw);
  if (cents === null || cents < 1 || cents > MAX_AMOUNT_CENTS) throw new ConfigError(`${name} must be a positive amount in USD such as 5.00, got "${raw}"`);
  return cents;
}

/** PAYMENTS and the settings of the provider it picks. */
function paymentSettings(env: NodeJS.ProcessEnv) {
  const payments = str(env, 'PAYMENTS') ?? 'simulated';
  if (payments !== 'simulated' && payments !== 'stripe' && payments !== 'off') {
    throw new ConfigError(`PAYMENTS must be simulated, stripe or off, got "${payments}"`);
  }
  const stripeSecretKey = str(env, 'STRIPE_SECRET_KEY');
  const stripeWebhookSecret = str(env, 'STRIPE_WEBHOOK_SECRET');
  if (payments === 'stripe') {
    if (!stripeSecretKey || !/^(sk|rk)_(test|live)_\S+$/.test(stripeSecretKey)) throw new ConfigError('PAYMENTS=stripe needs STRIPE_SECRET_KEY (sk_live_…, sk_test_… or a restricted rk_… key)');
    if (!stripeWebhookSecret || !/^whsec_\S+$/.test(stripeWebhookSecret)) throw new ConfigError('PAYMENTS=stripe needs STRIPE_WEBHOOK_SECRET (whsec_…, the signing secret of the webhook endpoint /payments/stripe/webhook)');
  }
  const stripeApiUrl = str(env, 'STRIPE_API_URL');
  if (stripeApiUrl !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(stripeApiUrl).protocol);
    } catch { /* reported below */ }
    if (!ok) throw new ConfigError(`STRIPE_API_URL must be an http(s) URL, got "${stripeApiUrl}"`);
  }
  const topupMinCents = amount(env, 'TOPUP_MIN', 500);
  const topupMaxCents = amount(env, 'TOPUP_MAX', 1_000_000);
  if (topupMinCents > topupMaxCents) throw new ConfigError('TOPUP_MIN must not exceed TOPUP_MAX');
  const paymentSweepIntervalS = int(env, 'PAYMENT_SWEEP_INTERVAL_S', 60, 1, 3600);
  return { payments: payments as PaymentsMode, stripeSecretKey, stripeWebhookSecret, stripeApiUrl, topupMinCents, topupMaxCents, paymentSweepIntervalS };
}

/** The embedded server's database (runtime.ts creates it under this name). */
export const EMBEDDED_DATABASE = 'hostcloud';

function databaseName(url: string | undefined): string {
  if (url === undefined) return EMBEDDED_DATABASE;
  try {
    const u = new URL(url);
    // libpq's default database is the user's name.
    return decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
  } catch {
    // pg accepts some strings URL does not; the connection will say if it is really broken.
    return EMBEDDED_DATABASE;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const worker = str(env, 'WORKER') ?? 'embedded';
  if (worker !== 'embedded' && worker !== 'off') {
    throw new ConfigError(`WORKER must be "embedded" or "off", got "${worker}"`);
  }
  const trust = str(env, 'TRUST_PROXY');
  const proxies = trust === undefined || trust === 'off' ? false : trust.split(',').map((p) => p.trim()).filter(Boolean);
  for (const p of proxies || []) {
    // proxy-addr also knows these names; "true"/"*" (trust anyone) is refused on purpose.
    if (!PROXY_NAMES.includes(p) && normaliseEntry(p) === null) {
      throw new ConfigError(`TRUST_PROXY must list proxy IP addresses or CIDRs (comma-separated) or loopback/linklocal/uniquelocal, got "${p}"`);
    }
  }
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const logFormat = str(env, 'LOG_FORMAT') ?? 'auto';
  if (logFormat !== 'json' && logFormat !== 'pretty' && logFormat !== 'auto') {
    throw new ConfigError(`LOG_FORMAT must be json, pretty or auto, got "${logFormat}"`);
  }
  const publicUrl = (str(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  const adminToken = str(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 24) {
    throw new ConfigError('ADMIN_TOKEN must be at least 24 characters (or leave it unset to have one generated)');
  }
  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 24) throw new ConfigError('METRICS_TOKEN must be at least 24 characters (or leave it unset: the admin token reads /metrics)');
  if (metricsToken !== undefined && metricsToken === adminToken) throw new ConfigError('METRICS_TOKEN must differ from ADMIN_TOKEN (it is the token that can only read /metrics)');
  const buildCommit = str(env, 'BUILD_COMMIT');
  if (buildCommit !== undefined && !/^[0-9a-zA-Z._-]{1,64}$/.test(buildCommit)) throw new ConfigError(`BUILD_COMMIT must be a commit id (1–64 letters, digits, ".", "_" or "-"), got "${buildCommit}"`);
  const smtpUrl = str(env, 'SMTP_URL');
  if (smtpUrl !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch { /* reported below */ }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://127.0.0.1:2525');
  }
  const smtpFrom = str(env, 'SMTP_FROM') ?? 'Hostcloud <noreply@localhost>';
  if (!/^[^\r\n]*@[^\r\n]*$/.test(smtpFrom)) throw new ConfigError(`SMTP_FROM must be one address, e.g. "Hostcloud <noreply@example.com>", got "${smtpFrom}"`);
  const databaseUrl = str(env, 'DATABASE_URL');
  const rateLimitPrefix = str(env, 'RATE_LIMIT_PREFIX') ?? `hostcloud:rl:${databaseName(databaseUrl)}`;
  if (rateLimitPrefix.length > 200 || !/^[\x21-\x7e]+$/.test(rateLimitPrefix)) {
    throw new ConfigError(`RATE_LIMIT_PREFIX must be 1–200 printable ASCII characters without spaces, got "${rateLimitPrefix}"`);
  }
  const computeDriver = str(env, 'COMPUTE_DRIVER') ?? 'simulated';
  if (computeDriver !== 'simulated' && computeDriver !== 'lxd') throw new ConfigError(`COMPUTE_DRIVER must be simulated or lxd, got "${computeDriver}"`);
  const lxdInstanceType = str(env, 'LXD_INSTANCE_TYPE') ?? 'virtual-machine';
  if (lxdInstanceType !== 'container' && lxdInstanceType !== 'virtual-machine') {
    throw new ConfigError(`LXD_INSTANCE_TYPE must be container or virtual-machine, got "${lxdInstanceType}"`);
  }
  const lxdProject = str(env, 'LXD_PROJECT') ?? 'hostcloud';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(lxdProject)) throw new ConfigError(`LXD_PROJECT must be 1–63 letters, digits, "-" or "_", got "${lxdProject}"`);
  const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
  const panelSignup = str(env, 'PANEL_SIGNUP') ?? 'off';
  if (panelSignup !== 'open' && panelSignup !== 'off') throw new ConfigError(`PANEL_SIGNUP must be "open" or "off", got "${panelSignup}"`);
  return {
    port,
    host: str(env, 'HOST') ?? '127.0.0.1',
    publicUrl,
    databaseUrl,
    seedDemo: flag(env, 'SEED_DEMO', databaseUrl === undefined),
    dataDir,
    adminToken,
    metricsToken,
    buildCommit,
    redisUrl: str(env, 'REDIS_URL'),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 600, 1, 10_000_000),
    rateLimitWindowS: int(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
    rateLimitPrefix,
    trustProxy: proxies,
    worker,
    simDelayMs: int(env, 'SIM_DELAY_MS', 2000, 0, 600_000),
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 32, 1, 1000),
    workerPollMs: int(env, 'WORKER_POLL_MS', 500, 10, 60_000),
    // One for the completions, one for the queue's fetches, at least one for the operations.
    workerPoolMax: int(env, 'WORKER_POOL_MAX', 18, 3, 1000),
    workerMetricsPort: str(env, 'WORKER_METRICS_PORT') === undefined ? null : int(env, 'WORKER_METRICS_PORT', 0, 0, 65535),
    jobRetryLimit: int(env, 'JOB_RETRY_LIMIT', 5, 0, 100),
    jobRetryDelayS: int(env, 'JOB_RETRY_DELAY_S', 5, 1, 3600),
    jobTimeoutS: int(env, 'JOB_TIMEOUT_S', 900, 1, 86_400),
    jobMaintenanceS: int(env, 'JOB_MAINTENANCE_S', 60, 1, 3600),
    operationLeaseS: int(env, 'OPERATION_LEASE_S', 30, 3, 3600),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    databasePreparedStatements: flag(env, 'DATABASE_PREPARED_STATEMENTS', true),
    databasePoolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    providerTimeoutMs: int(env, 'PROVIDER_TIMEOUT_MS', 2000, 1, 120_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    logLevel,
    smtpUrl,
    smtpFrom,
    mailMaxAttempts: int(env, 'MAIL_MAX_ATTEMPTS', 5, 1, 100),
    mailRetryDelayS: int(env, 'MAIL_RETRY_DELAY_S', 60, 1, 86_400),
    billingIntervalS: int(env, 'BILLING_INTERVAL_S', 300, 1, 86_400),
    suspendGraceDays: int(env, 'SUSPEND_GRACE_DAYS', 14, 0, 365),
    domainRenewDays: int(env, 'DOMAIN_RENEW_DAYS', 30, 1, 60),
    logFormat,
    ipCooldownS: int(env, 'IP_COOLDOWN_S', 3600, 0, 30 * 86_400),
    computeDriver,
    lxdProject,
    lxdInstanceType,
    lxdStoragePool: str(env, 'LXD_STORAGE_POOL') ?? 'default',
    lxdClientCert: path.resolve(str(env, 'LXD_CLIENT_CERT') ?? path.join(dataDir, 'lxd-client.crt')),
    lxdClientKey: path.resolve(str(env, 'LXD_CLIENT_KEY') ?? path.join(dataDir, 'lxd-client.key')),
    panelSignup,
    panelSessionIdleS: int(env, 'PANEL_SESSION_IDLE_S', 3600, 60, 30 * 86_400),
    panelSessionMaxS: int(env, 'PANEL_SESSION_MAX_S', 43_200, 300, 90 * 86_400),
    ...paymentSettings(env),
    eventRetentionDays: int(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    webhookAllowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP', false),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookMaxPerAccount: int(env, 'WEBHOOK_MAX_PER_ACCOUNT', 10, 1, 1000),
    webhookTimeoutS: int(env, 'WEBHOOK_TIMEOUT_S', 15, 1, 60),
    webhookConnectTimeoutS: int(env, 'WEBHOOK_CONNECT_TIMEOUT_S', 5, 1, 60),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 100, 1, 10_000),
    webhookEndpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 10, 1, 1000),
    webhookRetryScheduleS: schedule(env, 'WEBHOOK_RETRY_SCHEDULE_S', DEFAULT_RETRY_SCHEDULE_S),
    webhookDisableAfterDays: int(env, 'WEBHOOK_DISABLE_AFTER_DAYS', 5, 1, 365),
  };
}
