// Settings come from the environment only. Every setting documents its default here and in
// SETTINGS below (from which the operator's settings table is written); a malformed value stops
// the process with a clear message rather than running with a surprise.
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
  /** ADMIN_TOKEN — bearer token of the admin API. Unset → the installation's own, made once (runtime.ts resolveAdminToken). */
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
  /** HOSTING_DRIVER — `simulated` (the built-in simulated panel), `native` (accounts on hosting nodes over SSH) or `off` (no hosting: orders refused as the panel has no room). Default simulated. */
  hostingDriver: 'simulated' | 'native' | 'off';
  /** HOSTING_SSH_KEY — the private key (OpenSSH format) the native driver logs in to hosting nodes with. Default DATA_DIR/hosting-ssh-key, made at first use. */
  hostingSshKey: string;
  /** REGISTRAR_DRIVER — `simulated` (the built-in registry), `epp` (a registry or registrar over EPP; docs/epp.md) or `off` (no domains). Default simulated. */
  registrarDriver: 'simulated' | 'epp' | 'off';
  /** EPP_HOST / EPP_PORT (700) — the registry's EPP server; required with REGISTRAR_DRIVER=epp. */
  eppHost: string | undefined;
  eppPort: number;
  /** EPP_CLIENT_ID / EPP_PASSWORD — our login (clID, pw) at the registry. */
  eppClientId: string | undefined;
  eppPassword: string | undefined;
  /** EPP_CLIENT_CERT / EPP_CLIENT_KEY — PEM files of the TLS client certificate the registry knows us by. */
  eppClientCert: string | undefined;
  eppClientKey: string | undefined;
  /** EPP_CA — PEM file of the CA(s) to trust for the registry's certificate (pinned); unset: the system's. */
  eppCa: string | undefined;
  /** EPP_SESSIONS — EPP sessions per process (the registry's limit per registrar bounds it). Default 2. */
  eppSessions: number;
  /** EPP_POLL_S — how often the worker reads the registry's message queue. Default 60. */
  eppPollS: number;
  /** EPP_TRANSFER_CHECK_S — the longest wait between two direct checks of a pending transfer (the wait doubles from 1 s; the queue's news ends it). Default 900. */
  eppTransferCheckS: number;
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
  // DNS (docs/dns.md).
  /** DNS_DRIVER — `simulated` (zones kept in the database, answered by nothing), `powerdns` (PowerDNS Authoritative's HTTP API) or `off`. Default simulated. */
  dnsDriver: DnsDriver;
  /** POWERDNS_API_URL — PowerDNS's webserver, e.g. http://127.0.0.1:8081; required with DNS_DRIVER=powerdns. */
  powerdnsApiUrl: string | undefined;
  /** POWERDNS_API_KEY — its `api-key`; required with DNS_DRIVER=powerdns. */
  powerdnsApiKey: string | undefined;
  /** POWERDNS_SERVER_ID — the server id in the API's paths. Default localhost. */
  powerdnsServerId: string;
  /** DNS_NAMESERVERS — comma-separated host names (at least two): every zone's NS records, and a registration's nameservers when it names none. Default ns1.hostcloud.test,ns2.hostcloud.test. */
  dnsNameservers: string[];
}

export type DnsDriver = 'simulated' | 'powerdns' | 'off';

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
function hostingSettings(env: NodeJS.ProcessEnv, dataDir: string) {
  const hostingDriver = str(env, 'HOSTING_DRIVER') ?? 'simulated';
  if (hostingDriver !== 'simulated' && hostingDriver !== 'native' && hostingDriver !== 'off') {
    throw new ConfigError(`HOSTING_DRIVER must be simulated, native or off, got "${hostingDriver}"`);
  }
  return { hostingDriver, hostingSshKey: path.resolve(str(env, 'HOSTING_SSH_KEY') ?? path.join(dataDir, 'hosting-ssh-key')) } as const;
}

function registrarSettings(env: NodeJS.ProcessEnv) {
  const registrarDriver = str(env, 'REGISTRAR_DRIVER') ?? 'simulated';
  if (registrarDriver !== 'simulated' && registrarDriver !== 'epp' && registrarDriver !== 'off') {
    throw new ConfigError(`REGISTRAR_DRIVER must be simulated, epp or off, got "${registrarDriver}"`);
  }
  const file = (v: string | undefined) => (v === undefined ? undefined : path.resolve(v));
  const out = {
    registrarDriver: registrarDriver as Config['registrarDriver'],
    eppHost: str(env, 'EPP_HOST'), eppPort: int(env, 'EPP_PORT', 700, 1, 65_535),
    eppClientId: str(env, 'EPP_CLIENT_ID'), eppPassword: str(env, 'EPP_PASSWORD'),
    eppClientCert: file(str(env, 'EPP_CLIENT_CERT')), eppClientKey: file(str(env, 'EPP_CLIENT_KEY')), eppCa: file(str(env, 'EPP_CA')),
    eppSessions: int(env, 'EPP_SESSIONS', 2, 1, 64), eppPollS: int(env, 'EPP_POLL_S', 60, 1, 86_400),
    eppTransferCheckS: int(env, 'EPP_TRANSFER_CHECK_S', 900, 1, 86_400),
  };
  if (registrarDriver === 'epp') {
    const missing = (['EPP_HOST', 'EPP_CLIENT_ID', 'EPP_PASSWORD'] as const).filter((n) => !str(env, n));
    if (missing.length) throw new ConfigError(`REGISTRAR_DRIVER=epp needs ${missing.join(', ')}`);
    if ((out.eppClientCert === undefined) !== (out.eppClientKey === undefined)) throw new ConfigError('EPP_CLIENT_CERT and EPP_CLIENT_KEY go together');
  }
  return out;
}

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

/** DNS_DRIVER and the settings of the driver it picks. */
function dnsSettings(env: NodeJS.ProcessEnv) {
  const dnsDriver = str(env, 'DNS_DRIVER') ?? 'simulated';
  if (dnsDriver !== 'simulated' && dnsDriver !== 'powerdns' && dnsDriver !== 'off') throw new ConfigError(`DNS_DRIVER must be simulated, powerdns or off, got "${dnsDriver}"`);
  const powerdnsApiUrl = str(env, 'POWERDNS_API_URL')?.replace(/\/+$/, '');
  const powerdnsApiKey = str(env, 'POWERDNS_API_KEY');
  if (powerdnsApiUrl !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(powerdnsApiUrl).protocol);
    } catch { /* reported below */ }
    if (!ok) throw new ConfigError(`POWERDNS_API_URL must be an http(s) URL, got "${powerdnsApiUrl}"`);
  }
  if (dnsDriver === 'powerdns' && (!powerdnsApiUrl || !powerdnsApiKey)) throw new ConfigError('DNS_DRIVER=powerdns needs POWERDNS_API_URL and POWERDNS_API_KEY');
  const dnsNameservers = (str(env, 'DNS_NAMESERVERS') ?? 'ns1.hostcloud.test,ns2.hostcloud.test')
    .split(',').map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter((h) => h !== '');
  const hostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
  if (dnsNameservers.length < 2 || new Set(dnsNameservers).size !== dnsNameservers.length || !dnsNameservers.every((h) => hostName.test(h))) {
    throw new ConfigError(`DNS_NAMESERVERS must name at least two distinct host names, comma-separated, got "${str(env, 'DNS_NAMESERVERS')}"`);
  }
  return { dnsDriver: dnsDriver as DnsDriver, powerdnsApiUrl, powerdnsApiKey, powerdnsServerId: str(env, 'POWERDNS_SERVER_ID') ?? 'localhost', dnsNameservers };
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
    ...hostingSettings(env, dataDir),
    ...registrarSettings(env),
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
    ...dnsSettings(env),
  };
}

// The settings' reference. docs/operations.md's settings table and deploy/hostcloud.env are
// written from this list by `npm run settings:docs` (scripts/settings-docs.ts), and
// test/unit/settings-docs.test.ts fails when either file differs from it, when loadConfig reads a
// variable missing here (or the reverse), or when a `value` is not what loadConfig uses by
// default. A new setting: read it in loadConfig, describe it here, run `npm run settings:docs`.
export interface SettingDoc {
  /** The environment variable. */
  name: string;
  /** What it does (Markdown, one line). */
  meaning: string;
  /** The default as a reader needs it (Markdown): a value, or what happens when unset. */
  default: string;
  /** The default as a literal value, for the environment file; absent when unset or derived. */
  value?: string;
  /** The value deploy/hostcloud.env sets for a production installation (left commented out otherwise). */
  deploy?: string;
}

export const SETTINGS: readonly SettingDoc[] = [
  {
    name: 'PORT',
    meaning: 'listen port',
    default: '`8080`',
    value: '8080',
  },
  {
    name: 'HOST',
    meaning: 'listen address (`0.0.0.0` or `::` for every interface)',
    default: '`127.0.0.1`',
    value: '127.0.0.1',
  },
  {
    name: 'PUBLIC_URL',
    meaning: 'origin used in `doc_url` and links',
    default: '`http://localhost:$PORT`',
    deploy: 'https://cloud.example.com',
  },
  {
    name: 'DATABASE_URL',
    meaning: 'PostgreSQL to use',
    default: 'unset → embedded PostgreSQL in `DATA_DIR/pg`',
    deploy: 'postgres://hostcloud:CHANGE-ME@127.0.0.1:5432/hostcloud',
  },
  {
    name: 'DATA_DIR',
    meaning: 'embedded database and local state',
    default: '`./data`',
    value: './data',
    deploy: '/var/lib/hostcloud',
  },
  {
    name: 'ADMIN_TOKEN',
    meaning: 'bearer token of the admin API (24+ characters)',
    default: 'unset → one per installation: made by the first process on the database (only its SHA-256 kept there), printed in full once and written to that process\'s `DATA_DIR/admin-token`; every process accepts it',
  },
  {
    name: 'SEED_DEMO',
    meaning: 'seed the demo catalog, nodes, IP pools and seller at start (once per database)',
    default: '`true` with the embedded database, `false` with `DATABASE_URL` (a production database starts empty: `hostcloud admin setup` lists what to add)',
  },
  {
    name: 'METRICS_TOKEN',
    meaning: 'a bearer token (24+ characters, not the admin token) that reads `GET /metrics` — of `serve`, and of `worker` on `WORKER_METRICS_PORT` — and nothing else: give Prometheus this one',
    default: 'unset → only the admin token reads `/metrics`',
  },
  {
    name: 'BUILD_COMMIT',
    meaning: 'the commit this installation runs, shown by `hostcloud_build_info`',
    default: 'unset → `git rev-parse` of the installation when it is a git checkout, else `unknown`',
  },
  {
    name: 'REDIS_URL',
    meaning: 'shared rate-limit store for several API processes',
    default: 'unset → in-process',
  },
  {
    name: 'RATE_LIMIT_MAX',
    meaning: 'requests per key (per IP before authentication) per window of `RATE_LIMIT_WINDOW_S`',
    default: '`600`',
    value: '600',
  },
  {
    name: 'RATE_LIMIT_WINDOW_S',
    meaning: 'the rate-limit window, in seconds',
    default: '`60`',
    value: '60',
  },
  {
    name: 'RATE_LIMIT_PREFIX',
    meaning: 'Redis key prefix of the budgets: processes of one installation share it, two installations on one Redis must not',
    default: '`hostcloud:rl:<database name>` (of `DATABASE_URL`; `hostcloud` when embedded)',
  },
  {
    name: 'TRUST_PROXY',
    meaning: 'comma-separated proxy addresses/CIDRs (or `loopback`, `linklocal`, `uniquelocal`) whose `X-Forwarded-For` is honoured',
    default: 'off',
    value: 'off',
    deploy: '127.0.0.1',
  },
  {
    name: 'WORKER',
    meaning: '`embedded` runs the worker inside `serve`; `off` does not',
    default: '`embedded`',
    value: 'embedded',
    deploy: 'off',
  },
  {
    name: 'SIM_DELAY_MS',
    meaning: 'base delay of each simulated provider step',
    default: '`2000`',
    value: '2000',
  },
  {
    name: 'COMPUTE_DRIVER',
    meaning: '`simulated` (the built-in platform) or `lxd` (servers and VDC VMs are LXD instances; see [Running on LXD](#running-on-lxd)); give every API and worker process of an installation the same one, since a process never acts on a node of the other platform (LXD nodes have an endpoint, simulated ones none) — a worker gives such a job back for another, unspent, with an error log line naming the node, its driver and the fix, and a request answers 503',
    default: '`simulated`',
    value: 'simulated',
    deploy: 'lxd',
  },
  {
    name: 'LXD_PROJECT',
    meaning: 'the LXD project instances live in (made on each node when missing; images and profiles are the `default` project\'s)',
    default: '`hostcloud`',
    value: 'hostcloud',
  },
  {
    name: 'LXD_INSTANCE_TYPE',
    meaning: '`virtual-machine` (KVM: production VPS) or `container` (no KVM needed)',
    default: '`virtual-machine`',
    value: 'virtual-machine',
  },
  {
    name: 'LXD_STORAGE_POOL',
    meaning: 'the storage pool of instances\' root disks, on every node',
    default: '`default`',
    value: 'default',
  },
  {
    name: 'LXD_CLIENT_CERT',
    meaning: 'the client certificate presented to LXD servers over https',
    default: '`DATA_DIR/lxd-client.crt`, made at first use',
  },
  {
    name: 'LXD_CLIENT_KEY',
    meaning: 'the private key of `LXD_CLIENT_CERT`',
    default: '`DATA_DIR/lxd-client.key`, made at first use',
  },
  {
    name: 'HOSTING_DRIVER',
    meaning: '`simulated` (the built-in hosting panel), `native` (web-hosting accounts are real accounts on hosting nodes reached over SSH: nginx, PHP-FPM, SFTP, MariaDB; see [hosting-nodes.md](hosting-nodes.md)) or `off` (no web hosting: orders are refused with 503)',
    default: '`simulated`',
  },
  {
    name: 'HOSTING_SSH_KEY',
    meaning: 'the private key (OpenSSH format) the native hosting driver logs in to hosting nodes with; `hostcloud admin hosting-nodes add` prints its public half',
    default: '`DATA_DIR/hosting-ssh-key`, made at first use',
  },
  {
    name: 'REGISTRAR_DRIVER',
    meaning: '`simulated` (the built-in registry), `epp` (a registry or registrar spoken to in EPP, RFC 5730–5734; see [epp.md](epp.md)) or `off` (domain orders fail with 502)',
    default: '`simulated`',
    value: 'simulated',
  },
  {
    name: 'EPP_HOST',
    meaning: 'the registry\'s EPP server (required with `REGISTRAR_DRIVER=epp`)',
    default: 'unset',
  },
  {
    name: 'EPP_PORT',
    meaning: 'its port',
    default: '`700`',
    value: '700',
  },
  {
    name: 'EPP_CLIENT_ID',
    meaning: 'our EPP login (`clID`) at the registry (required with `epp`)',
    default: 'unset',
  },
  {
    name: 'EPP_PASSWORD',
    meaning: 'its password (`pw`); also the key from which domains\' authInfo is derived',
    default: 'unset',
  },
  {
    name: 'EPP_CLIENT_CERT',
    meaning: 'PEM file of the TLS client certificate the registry knows us by',
    default: 'unset → no client certificate',
  },
  {
    name: 'EPP_CLIENT_KEY',
    meaning: 'PEM file of its private key',
    default: 'unset',
  },
  {
    name: 'EPP_CA',
    meaning: 'PEM file of the CA(s) trusted for the registry\'s certificate (pinned)',
    default: 'unset → the system\'s CAs',
  },
  {
    name: 'EPP_SESSIONS',
    meaning: 'EPP sessions each process keeps open (one command at a time each)',
    default: '`2`',
    value: '2',
  },
  {
    name: 'EPP_POLL_S',
    meaning: 'how often the worker reads and acknowledges the registry\'s message queue (transfers, notices)',
    default: '`60`',
    value: '60',
  },
  {
    name: 'EPP_TRANSFER_CHECK_S',
    meaning: 'the longest wait between two direct checks (`<transfer op="query">`) of a pending transfer in; the wait doubles from 1 s up to it, and a message of the queue about the transfer ends it at once',
    default: '`900`',
    value: '900',
  },
  {
    name: 'IP_COOLDOWN_S',
    meaning: 'how long a released address rests before it is handed out again',
    default: '`3600`',
    value: '3600',
  },
  {
    name: 'WORKER_CONCURRENCY',
    meaning: 'operations one worker process runs at once; they share its `WORKER_POOL_MAX` connections, each holding one only while a statement of its own runs (32 ran 17–28 % more operations/s per process on average than 16 at `SIM_DELAY_MS=0`, in alternated rounds, on 18 connections as on 34; docs/performance.md)',
    default: '`32`',
    value: '32',
  },
  {
    name: 'WORKER_POLL_MS',
    meaning: 'how long an idle worker waits before it looks for queued operations again (an operation that ends wakes it sooner); the longest a new operation waits to start',
    default: '`500`',
    value: '500',
  },
  {
    name: 'WORKER_POOL_MAX',
    meaning: 'connections one worker process opens (its operations, its batched completions, its queue; at least 3); `serve`\'s embedded worker has a pool of this size apart from the requests\', so a busy worker never makes a request wait for a connection. `serve` with `WORKER=off` and four workers need 82 of PostgreSQL\'s default 100',
    default: '`18`',
    value: '18',
  },
  {
    name: 'WORKER_METRICS_PORT',
    meaning: 'where `hostcloud worker` serves `GET /metrics` (`METRICS_TOKEN` or the admin token) on `HOST`',
    default: 'none (no listener)',
  },
  {
    name: 'JOB_RETRY_LIMIT',
    meaning: 'retries of an operation after a retryable provider error (at most this + 1 attempts)',
    default: '`5`',
    value: '5',
  },
  {
    name: 'JOB_RETRY_DELAY_S',
    meaning: 'first retry delay; later ones back off exponentially',
    default: '`5`',
    value: '5',
  },
  {
    name: 'OPERATION_LEASE_S',
    meaning: 'a running operation whose worker — or request, for an upgrade or an address purchase — stops renewing its lease (every third of this) for this long is presumed lost and queued again; so is a job fetched but never started',
    default: '`30`',
    value: '30',
  },
  {
    name: 'JOB_TIMEOUT_S',
    meaning: 'the queue\'s backstop: a job unfinished after this long is failed and retried; must exceed the slowest provider call. An operation every worker refuses (its node is another compute driver\'s) fails, refunded, this long after its first refusal',
    default: '`900`',
    value: '900',
  },
  {
    name: 'JOB_MAINTENANCE_S',
    meaning: 'the queue\'s upkeep interval (expiring, archiving jobs); workers look for lost operations this often or every third of `OPERATION_LEASE_S`, whichever is sooner',
    default: '`60`',
    value: '60',
  },
  {
    name: 'DATABASE_CONNECT_TIMEOUT_MS',
    meaning: 'how long a request waits for a database connection (new, or a free one of the pool) before answering 503',
    default: '`5000`',
    value: '5000',
  },
  {
    name: 'DATABASE_STATEMENT_TIMEOUT_MS',
    meaning: 'PostgreSQL cancels a statement after this long (503); a server too frozen to do so is given up on 2 s later',
    default: '`30000`',
    value: '30000',
  },
  {
    name: 'DATABASE_PREPARED_STATEMENTS',
    meaning: 'send statements named so PostgreSQL plans each once per connection; `false` behind a transaction-mode pooler that cannot carry them (PgBouncer before 1.21)',
    default: '`true`',
    value: 'true',
  },
  {
    name: 'DATABASE_POOL_MAX',
    meaning: 'connections `hostcloud serve` opens for its requests; with `WORKER=embedded` its worker opens `WORKER_POOL_MAX` more, in a pool of its own',
    default: '`10`',
    value: '10',
  },
  {
    name: 'PROVIDER_TIMEOUT_MS',
    meaning: 'how long a request waits for an upstream before giving up: a server detail\'s live state (then `unknown`), a web-hosting detail\'s disk usage (then `null`), the hosting panel\'s room check of an order and its login (then 502), an LXD node\'s probe in the admin list of nodes (then `unreachable`)',
    default: '`2000`',
    value: '2000',
  },
  {
    name: 'BODY_LIMIT_BYTES',
    meaning: 'largest request body (larger → 413 `PAYLOAD_TOO_LARGE`)',
    default: '`1048576`',
    value: '1048576',
  },
  {
    name: 'LOG_LEVEL',
    meaning: 'pino log level (`fatal` … `trace`, `silent`)',
    default: '`info`',
    value: 'info',
  },
  {
    name: 'LOG_FORMAT',
    meaning: '`json` (one JSON object a line), `pretty` (readable, colourised on a terminal), or `auto`: pretty when stdout is a terminal, JSON otherwise',
    default: '`auto`',
    value: 'auto',
    deploy: 'json',
  },
  {
    name: 'SMTP_URL',
    meaning: 'where the worker sends notifications, `smtp://user:pass@host:587` or `smtps://…:465` (nodemailer URL options such as `?pool=true` apply)',
    default: 'unset → notifications stay `queued`, listed at `GET /admin/v1/notifications`; sent once it is set',
  },
  {
    name: 'SMTP_FROM',
    meaning: 'the From of every notification; once a branding is saved, its name is the display name before this address (docs/branding.md)',
    default: '`Hostcloud <noreply@localhost>`',
    value: 'Hostcloud <noreply@localhost>',
  },
  {
    name: 'MAIL_MAX_ATTEMPTS',
    meaning: 'sending attempts before a notification is marked `failed` (its last error kept)',
    default: '`5`',
    value: '5',
  },
  {
    name: 'MAIL_RETRY_DELAY_S',
    meaning: 'wait after a failed send; doubled after each further failure, at most 6 h',
    default: '`60`',
    value: '60',
  },
  {
    name: 'PANEL_SIGNUP',
    meaning: '`open`: anyone may sign up in the customer panel (name and email; the password is chosen through the mailed link) and gets an account with a zero balance; `off`: invitation only',
    default: '`off`',
    value: 'off',
  },
  {
    name: 'PANEL_SESSION_IDLE_S',
    meaning: 'a panel session unused this long ends',
    default: '`3600`',
    value: '3600',
  },
  {
    name: 'PANEL_SESSION_MAX_S',
    meaning: 'a panel session ends this long after sign-in, however active',
    default: '`43200` (12 h)',
    value: '43200',
  },
  {
    name: 'BILLING_INTERVAL_S',
    meaning: 'how often each worker runs the billing pass (renewals, suspensions, cancellations, domain expiry); the first pass comes this long after the worker starts, and `hostcloud admin billing run` runs one at once',
    default: '`300`',
    value: '300',
  },
  {
    name: 'SUSPEND_GRACE_DAYS',
    meaning: 'a service suspended for non-payment is cancelled and released after this many days unpaid',
    default: '`14`',
    value: '14',
  },
  {
    name: 'DOMAIN_RENEW_DAYS',
    meaning: 'domains with `auto_renew` renew this many days before they expire',
    default: '`30`',
    value: '30',
  },
  {
    name: 'PAYMENTS',
    meaning: 'how customers top up: `simulated` (a checkout page served by this server, `/payments/simulated/checkout/…`, that pays or declines at a click), `stripe` (Stripe Checkout), or `off` (no top-up; the operator records deposits)',
    default: '`simulated`',
    value: 'simulated',
    deploy: 'off',
  },
  {
    name: 'STRIPE_SECRET_KEY',
    meaning: 'the Stripe API key (`sk_live_…`, `sk_test_…` or a restricted `rk_…`)',
    default: 'required with `PAYMENTS=stripe`',
  },
  {
    name: 'STRIPE_WEBHOOK_SECRET',
    meaning: 'the signing secret (`whsec_…`) of the Stripe webhook endpoint `PUBLIC_URL/payments/stripe/webhook` (events: `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`, `checkout.session.expired`)',
    default: 'required with `PAYMENTS=stripe`',
  },
  {
    name: 'STRIPE_API_URL',
    meaning: 'another origin for the Stripe API (stripe-mock, a test stand-in)',
    default: 'Stripe\'s own',
  },
  {
    name: 'PAYMENT_SWEEP_INTERVAL_S',
    meaning: 'how often each worker runs the payment sweep: payments pending over 5 minutes are settled with the provider\'s word, those still open 25 hours after they started are expired as abandoned, pending refunds are finished (see "Top-up and invoices")',
    default: '`60`',
    value: '60',
  },
  {
    name: 'TOPUP_MIN',
    meaning: 'smallest top-up (what the balance is credited; tax comes on top)',
    default: '`5.00`',
    value: '5.00',
  },
  {
    name: 'TOPUP_MAX',
    meaning: 'largest top-up',
    default: '`10000.00`',
    value: '10000.00',
  },
  {
    name: 'EVENT_RETENTION_DAYS',
    meaning: 'events (`GET /v2/events`) and their webhook deliveries older than this are removed by the worker\'s hourly maintenance',
    default: '`30`',
    value: '30',
  },
  {
    name: 'WEBHOOK_ALLOW_HTTP',
    meaning: 'accept, and deliver to, plain `http://` webhook URLs — development and tests only',
    default: '`false` (https only)',
    value: 'false',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    meaning: 'accept, and deliver to, webhook URLs on loopback, private, link-local, carrier-grade NAT, multicast and other non-public addresses — development and tests only',
    default: '`false`',
    value: 'false',
  },
  {
    name: 'WEBHOOK_MAX_PER_ACCOUNT',
    meaning: 'webhook endpoints one account may register (one more is 422 `QUOTA_EXCEEDED`)',
    default: '`10`',
    value: '10',
  },
  {
    name: 'WEBHOOK_TIMEOUT_S',
    meaning: 'a delivery must be answered 2xx within this (connection, TLS, request and answer), or the attempt failed and the request is cut',
    default: '`15`',
    value: '15',
  },
  {
    name: 'WEBHOOK_CONNECT_TIMEOUT_S',
    meaning: 'the TCP connection to an endpoint must be up within this',
    default: '`5`',
    value: '5',
  },
  {
    name: 'WEBHOOK_CONCURRENCY',
    meaning: 'webhook deliveries one worker process has in flight at once',
    default: '`100`',
    value: '100',
  },
  {
    name: 'WEBHOOK_ENDPOINT_CONCURRENCY',
    meaning: 'at most this many deliveries in flight to one endpoint, across all worker processes (a slow receiver holds its own slots only)',
    default: '`10`',
    value: '10',
  },
  {
    name: 'WEBHOOK_RETRY_SCHEDULE_S',
    meaning: 'comma-separated waits in seconds after each failed attempt; after the last, the delivery has failed',
    default: '`5,300,1800,7200,18000,36000,50400,72000,86400` (Standard Webhooks\' example: ten attempts over ~75 h)',
    value: '5,300,1800,7200,18000,36000,50400,72000,86400',
  },
  {
    name: 'WEBHOOK_DISABLE_AFTER_DAYS',
    meaning: 'an endpoint whose every attempt has failed for this many days is disabled, with a notice',
    default: '`5`',
    value: '5',
  },  // DNS (docs/dns.md).
  {
    name: 'DNS_DRIVER',
    meaning: 'where customers\' zones and reverse DNS are served: `simulated` (kept in the database, answered by nothing), `powerdns` (PowerDNS Authoritative\'s HTTP API; see [docs/dns.md](dns.md)) or `off`',
    default: '`simulated`',
    value: 'simulated',
  },
  {
    name: 'POWERDNS_API_URL',
    meaning: 'PowerDNS\'s webserver, e.g. `http://127.0.0.1:8081`',
    default: 'unset; required with `DNS_DRIVER=powerdns`',
  },
  {
    name: 'POWERDNS_API_KEY',
    meaning: 'PowerDNS\'s `api-key`',
    default: 'unset; required with `DNS_DRIVER=powerdns`',
  },
  {
    name: 'POWERDNS_SERVER_ID',
    meaning: 'the server id in PowerDNS\'s API paths',
    default: '`localhost`',
    value: 'localhost',
  },
  {
    name: 'DNS_NAMESERVERS',
    meaning: 'comma-separated host names, at least two: the NS records of every zone, and a domain\'s nameservers when its registration or transfer names none',
    default: '`ns1.hostcloud.test,ns2.hostcloud.test`',
    value: 'ns1.hostcloud.test,ns2.hostcloud.test',
  },
];
