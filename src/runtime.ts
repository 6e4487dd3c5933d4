// The wiring module: picks each dependency's implementation from the settings, in one place.
// PostgreSQL: DATABASE_URL or the embedded server. Rate limits: Redis or in-process. Compute and
// hosting: the simulated platform and panel (real drivers would be chosen here). Payments: the
// simulated checkout, Stripe or none (PAYMENTS). Jobs: pg-boss on the same database.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Config, EMBEDDED_DATABASE } from './config.ts';
import { type Database, connect } from './db/connection.ts';
import { ensureDatabase } from './db/create-database.ts';
import { type EmbeddedServer, startEmbedded } from './db/embedded.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoCatalog } from './db/seed.ts';
import { findOrCreateSecret, forgetSecret } from './db/queries/app-secrets.ts';
import { setIpCooldown } from './db/queries/ip-pools.ts';
import type { Services } from './core/context.ts';
// Registers every family's operations (core/operations knows them only so): every process wires through here.
import './core/families.ts';
import type { Db } from './core/types.ts';
import { type AdminSecret, tokenDigest } from './http/bearer.ts';
import { type RateLimiter, createRateLimiter } from './http/rate-limit.ts';
import { createJobQueue } from './jobs/queue.ts';
import { loadOrCreateClientCertificate } from './providers/compute/lxd/certificate.ts';
import { createLxdCompute } from './providers/compute/lxd/index.ts';
import { createSimulatedCompute } from './providers/compute/simulated/index.ts';
import type { ComputeProvider } from './providers/compute/types.ts';
import { WrongPlatformError } from './providers/errors.ts';
import { createNativePanel } from './providers/hosting/native/index.ts';
import { offPanel } from './providers/hosting/off.ts';
import { createSimulatedPanel } from './providers/hosting/simulated/index.ts';
import type { HostingPanel } from './providers/hosting/types.ts';
import { noopPayments } from './providers/payments/noop.ts';
import { createSimulatedPayments } from './providers/payments/simulated.ts';
import { createStripePayments } from './providers/payments/stripe.ts';
import type { PaymentProvider } from './providers/payments/types.ts';
import { readFileSync } from 'node:fs';
import { type EppRegistrar, createEppRegistrar } from './providers/registrar/epp/index.ts';
import { offRegistrar } from './providers/registrar/off.ts';
import { createSimulatedRegistrar } from './providers/registrar/simulated/index.ts';
import type { Registrar } from './providers/registrar/types.ts';
import { createPowerDns } from './providers/dns/powerdns.ts';
import { noopDns } from './providers/dns/noop.ts';
import { createSimulatedDns } from './providers/dns/simulated.ts';
import type { DnsProvider } from './providers/dns/types.ts';
import { setDnsNameservers } from './db/queries/dns.ts';
import { ensureAllPoolZones } from './core/dns/reverse.ts';
import type { Telemetry } from './telemetry/index.ts';
import { instrumentProvider } from './telemetry/provider.ts';

export { EMBEDDED_DATABASE };

export interface Store {
  /** The requests' pool (DATABASE_POOL_MAX) or, in a process that only works, the worker's. */
  database: Database;
  /**
   * The worker's pool (WORKER_POOL_MAX, generic plans): `database` itself in a process that only
   * works, one of its own beside the requests' in `serve` with the embedded worker, null without a worker.
   */
  workerDatabase: Database | null;
  embedded: EmbeddedServer | null;
  close(): Promise<void>;
}

/** Connects (starting the embedded server if needed), migrates and, where SEED_DEMO, seeds the demo data. */
export async function openStore(config: Config, log: (msg: string) => void = () => {}, opts: { runsWorker?: boolean; servesRequests?: boolean } = {}): Promise<Store> {
  let embedded: EmbeddedServer | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbedded(config.dataDir, log);
    await ensureDatabase(embedded.adminUrl, EMBEDDED_DATABASE);
    url = embedded.urlFor(EMBEDDED_DATABASE);
  }
  const common = { connectTimeoutMs: config.databaseConnectTimeoutMs, statementTimeoutMs: config.databaseStatementTimeoutMs, preparedStatements: config.databasePreparedStatements };
  // The worker runs only by-id statements: generic plans (see PoolOptions). Its operations share
  // its pool (WORKER_CONCURRENCY may exceed WORKER_POOL_MAX), so in `serve` it gets a pool of its
  // own: a busy worker must never make a request wait for a connection.
  const worksOnly = opts.runsWorker === true && opts.servesRequests === false;
  const database = worksOnly
    ? connect(url, { ...common, max: config.workerPoolMax, genericPlans: true })
    : connect(url, { ...common, max: config.databasePoolMax });
  const workerDatabase = worksOnly ? database : opts.runsWorker ? connect(url, { ...common, max: config.workerPoolMax, genericPlans: true }) : null;
  const closeAll = async () => {
    await database.close();
    await workerDatabase?.close();
  };
  try {
    await migrateToLatest(database.db);
    if (config.seedDemo) await seedDemoCatalog(database.db);
    await setIpCooldown(database.db, config.ipCooldownS);
    await setDnsNameservers(database.db, config.dnsNameservers);
    await ensureAllPoolZones(database.db);
  } catch (e) {
    await closeAll();
    await embedded?.stop();
    throw e;
  }
  return {
    database,
    workerDatabase,
    embedded,
    async close() {
      await closeAll();
      await embedded?.stop();
    },
  };
}

/** The app_secrets row holding the SHA-256 of the installation's generated admin token. */
export const ADMIN_TOKEN_SECRET = 'admin_token_sha256';

export interface ResolvedAdminToken {
  /** What the API checks a bearer token against. */
  secret: AdminSecret;
  /** The token in full where this process knows it (ADMIN_TOKEN, or its DATA_DIR/admin-token); null when another process of the installation made it. */
  token: string | null;
  /** This process made it now: the one time it is shown in full. */
  generated: boolean;
  /** DATA_DIR/admin-token holds a token that is not this installation's (left from another database). */
  staleFile: boolean;
}

/**
 * ADMIN_TOKEN when set; else the installation's one token, made once for the database by
 * whichever process starts first: its SHA-256 is kept in app_secrets (the insert loses quietly to
 * a concurrent maker), and only the maker learns it in full, prints it once and writes it to its
 * DATA_DIR/admin-token. Every process of the installation accepts it. A DATA_DIR/admin-token from
 * before the database kept one becomes the installation's token if none is kept yet.
 */
export async function resolveAdminToken(config: Config, db: Db): Promise<ResolvedAdminToken> {
  if (config.adminToken) return { secret: config.adminToken, token: config.adminToken, generated: false, staleFile: false };
  const file = path.join(config.dataDir, 'admin-token');
  const saved = (await fs.readFile(file, 'utf8').catch(() => '')).trim();
  const candidate = saved || `hcadm_${randomBytes(24).toString('base64url')}`;
  const digest = tokenDigest(candidate);
  const kept = await findOrCreateSecret(db, ADMIN_TOKEN_SECRET, digest);
  const secret = { sha256: kept };
  if (kept !== digest) return { secret, token: null, generated: false, staleFile: saved !== '' };
  if (saved) return { secret, token: saved, generated: false, staleFile: false };
  try {
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.writeFile(file, `${candidate}\n`, { mode: 0o600 });
  } catch (e) {
    // Nobody would ever know the token: give the claim back, so the next start makes another.
    await forgetSecret(db, ADMIN_TOKEN_SECRET, digest).catch(() => {});
    throw e;
  }
  return { secret, token: candidate, generated: true, staleFile: false };
}

export function rateLimiterFor(config: Config): RateLimiter {
  return createRateLimiter({ max: config.rateLimitMax, windowS: config.rateLimitWindowS, redisUrl: config.redisUrl, prefix: config.rateLimitPrefix });
}

/**
 * The compute provider; with telemetry, every call is counted and timed per method. `logRefusals`:
 * each call refused because the machine's node is another driver's (platform.ts) is logged as an
 * error — the API's; the worker logs its own, with the operation (operation-slots.ts).
 */
export function computeFor(config: Config, db: Db, telemetry?: Telemetry, opts: { logRefusals?: boolean } = {}): ComputeProvider {
  const compute = config.computeDriver === 'lxd' ? createLxdCompute({
    db, project: config.lxdProject, instanceType: config.lxdInstanceType, storagePool: config.lxdStoragePool,
    certificate: () => loadOrCreateClientCertificate({ certFile: config.lxdClientCert, keyFile: config.lxdClientKey }),
  }) : createSimulatedCompute({ db, delayMs: config.simDelayMs });
  if (!telemetry) return compute;
  const { logger } = telemetry;
  const logRefusal = (method: string, e: unknown) => {
    if (e instanceof WrongPlatformError) logger.error({ component: 'compute', call: method, node: e.node, compute_driver: e.driver }, e.message);
  };
  return instrumentProvider('compute', compute, telemetry.metrics, opts.logRefusals ? logRefusal : undefined);
}

/** The hosting panel; with telemetry, every call is counted and timed per method. */
export function hostingFor(config: Config, db: Db, telemetry?: Telemetry): HostingPanel {
  // HOSTING_DRIVER: the simulated panel, real accounts on hosting nodes over SSH, or none.
  const panel = config.hostingDriver === 'native' ? createNativePanel({ db, keyFile: config.hostingSshKey, publicUrl: config.publicUrl })
    : config.hostingDriver === 'off' ? offPanel : createSimulatedPanel({ db, delayMs: config.simDelayMs });
  return telemetry ? instrumentProvider('hosting', panel, telemetry.metrics) : panel;
}

// One EPP driver per registry login and process: the API and the embedded worker share its
// sessions (EPP_SESSIONS per process, not per caller) and what its poll queue has learnt.
const eppDrivers = new Map<string, EppRegistrar>();

function eppFor(config: Config): EppRegistrar {
  const key = [config.eppHost, config.eppPort, config.eppClientId, config.eppClientCert, config.eppSessions].join('|');
  let driver = eppDrivers.get(key);
  if (!driver) {
    const pem = (file: string | undefined) => (file ? readFileSync(file, 'utf8') : undefined);
    driver = createEppRegistrar({
      host: config.eppHost!, port: config.eppPort, clientId: config.eppClientId!, password: config.eppPassword!,
      cert: pem(config.eppClientCert), key: pem(config.eppClientKey), ca: pem(config.eppCa), sessions: config.eppSessions, pollS: config.eppPollS,
      transferCheckMaxMs: config.eppTransferCheckS * 1000,
    });
    eppDrivers.set(key, driver);
  }
  return driver;
}

/** Logs out of every EPP session this process opened (a graceful stop). */
export async function closeRegistrars(): Promise<void> {
  const all = [...eppDrivers.values()];
  eppDrivers.clear();
  await Promise.all(all.map((d) => d.close()));
}

/** The registrar of REGISTRAR_DRIVER: the simulated registry, EPP or none; instrumented like compute. */
export function registrarFor(config: Config, db: Db, telemetry?: Telemetry): Registrar {
  const registrar = config.registrarDriver === 'epp' ? eppFor(config)
    : config.registrarDriver === 'off' ? offRegistrar : createSimulatedRegistrar({ db, delayMs: config.simDelayMs });
  return telemetry ? instrumentProvider('registrar', registrar, telemetry.metrics) : registrar;
}

/** The payment provider of PAYMENTS: the simulated checkout, Stripe, or none (off). */
export function paymentsFor(config: Config, db: Db, telemetry?: Telemetry): PaymentProvider {
  const payments = config.payments === 'stripe'
    ? createStripePayments({ secretKey: config.stripeSecretKey!, webhookSecret: config.stripeWebhookSecret!, apiUrl: config.stripeApiUrl })
    : config.payments === 'simulated' ? createSimulatedPayments({ db, publicUrl: config.publicUrl, delayMs: config.simDelayMs }) : noopPayments;
  return telemetry ? instrumentProvider('payments', payments, telemetry.metrics) : payments;
}

/** DNS_DRIVER's provider: the simulated one (nothing served), PowerDNS's HTTP API, or none (off); instrumented like compute. */
export function dnsFor(config: Config, telemetry?: Telemetry): DnsProvider {
  const dns = config.dnsDriver === 'powerdns'
    ? createPowerDns({ apiUrl: config.powerdnsApiUrl!, apiKey: config.powerdnsApiKey!, serverId: config.powerdnsServerId, timeoutMs: Math.max(config.providerTimeoutMs, 5000) })
    : config.dnsDriver === 'simulated' ? createSimulatedDns() : noopDns;
  return telemetry ? instrumentProvider('dns', dns, telemetry.metrics) : dns;
}

/**
 * Every upstream system and setting the core and the worker share, chosen from the settings: the one
 * place a new kind of upstream is wired (its interface in src/providers/<kind>/types.ts and a field of
 * Services, its drivers beside it, its choice here). serve, the worker, the billing timer, the payment
 * sweep and the runners receive this value (or a Pick of it). `worker`: the worker's own (it logs a
 * compute refusal with its operation, src/jobs/operation-slots.ts, so its compute does not).
 */
export function servicesFor(config: Config, db: Db, telemetry?: Telemetry, opts: { worker?: boolean } = {}): Services {
  return {
    compute: computeFor(config, db, telemetry, { logRefusals: opts.worker !== true }),
    hosting: hostingFor(config, db, telemetry),
    registrar: registrarFor(config, db, telemetry),
    payments: paymentsFor(config, db, telemetry),
    dns: dnsFor(config, telemetry),
    dnsNameservers: config.dnsNameservers,
    jobs: createJobQueue(db, { retryLimit: config.jobRetryLimit, retryDelayS: config.jobRetryDelayS, timeoutS: config.jobTimeoutS }),
    providerTimeoutMs: config.providerTimeoutMs,
    operationLeaseS: config.operationLeaseS,
  };
}
