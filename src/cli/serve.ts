import type { Config } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { panelBundle } from '../http/panel/assets.ts';
import { consoleBundle } from '../http/staff-console/assets.ts';
import { createLogger } from '../http/logger.ts';
import { limitHeapGrowth } from './heap.ts';
import { guardProcess } from './process-guard.ts';
import { startWorker, type Worker } from '../jobs/worker.ts';
import { renderV2Event } from '../http/v2/events/presenters.ts';
import { RUNNERS } from '../core/families.ts';
import { closeRegistrars, openStore, rateLimiterFor, resolveAdminToken, servicesFor } from '../runtime.ts';
import { createTelemetry, observeDatabase } from '../telemetry/index.ts';
import { adminCommand, announceStart, announceStop, listen } from './start-up.ts';
import { paymentsReadiness } from '../core/payments/settings.ts';
import { setupReadiness } from '../core/setup/readiness.ts';
import type { Db } from '../core/types.ts';
import type { Logger } from 'pino';

export async function serve(config: Config): Promise<void> {
  limitHeapGrowth();
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  guardProcess(logger);
  const store = await openStore(config, (m) => logger.debug({ component: 'postgres' }, m), { runsWorker: config.worker === 'embedded' });
  const admin = await resolveAdminToken(config, store.database.db).catch(async (e: unknown) => {
    await store.close().catch(() => {});
    throw e;
  });
  const rateLimiter = rateLimiterFor(config);
  const telemetry = createTelemetry(logger, config.buildCommit);
  observeDatabase(telemetry, store.database, store.workerDatabase);
  const services = servicesFor(config, store.database.db, telemetry);
  const app = await buildApp({ config, db: store.database.db, rateLimiter, adminToken: admin.secret, telemetry, services });
  let worker: Worker | null = null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop taking requests and let in-flight ones finish, then release the database.
    await app.close().catch((e) => logger.error({ err: e }, 'closing http'));
    await worker?.stop().catch((e) => logger.error({ err: e }, 'stopping worker'));
    // EPP sessions say <logout/> (each within a second) rather than vanishing under the registry.
    await closeRegistrars().catch((e) => logger.error({ err: e }, 'closing registrar sessions'));
    await rateLimiter.close();
    await store.close().catch((e) => logger.error({ err: e }, 'closing database'));
    announceStop(config, logger);
    process.exit(0);
  };
  // Kept for the whole shutdown: a second signal (a supervisor and npm both passing one on, a
  // second Ctrl-C) would otherwise meet no handler and end the process at once, before it stops
  // the embedded PostgreSQL. While stopping, another signal changes nothing; SIGKILL still ends it.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const port = await listen(app, config).catch(async (e: unknown) => {
    // Nothing may outlive a failed start: release the database before saying why.
    await app.close().catch(() => {});
    await rateLimiter.close();
    await store.close().catch(() => {});
    throw e;
  });
  const missing = await setupMissing(config, store.database.db, logger);
  announceStart({ config, port, clusterDir: store.embedded?.clusterDir ?? null, token: admin.token, generated: admin.generated, staleFile: admin.staleFile, missing }, logger);
  await reportPayments(config, store.database.db, logger, adminCommand(config, port, admin.token !== null));
  // The customer panel's page is bundled on its first request; build it now, so nobody waits for it.
  panelBundle().catch((err: unknown) => logger.error({ err }, 'the customer panel could not be built; /panel answers 500 until it can'));
  consoleBundle().catch((err: unknown) => logger.error({ err }, 'the operator console could not be built; /admin answers 500 until it can'));
  if (store.workerDatabase) {
    const db = store.workerDatabase.db;
    worker = await startWorker({ db, ...servicesFor(config, db, telemetry, { worker: true }), runners: RUNNERS, config, logger, metrics: telemetry.metrics, renderEvent: renderV2Event });
  }
}

/** What the setup still lacks (GET /admin/v1/setup), for the banner: each item with its fix. */
async function setupMissing(config: Config, db: Db, logger: Logger): Promise<string[]> {
  try {
    const r = await setupReadiness(db, { computeDriver: config.computeDriver, smtpConfigured: config.smtpUrl !== undefined, payments: config.payments });
    return r.checks.filter((c) => !c.ready).map((c) => `${c.item.replace('_', ' ')}: ${c.detail} (${c.fix})`);
  } catch (err) {
    logger.warn({ err, component: 'setup' }, 'could not read what the setup lacks at start');
    return [];
  }
}

/**
 * Says at start whether customers can top up: a warning when every top-up would be refused for want
 * of the seller's company details (an operator who never set them learns it here, not from a
 * customer), with the command that sets them; else which seller the invoices name.
 */
async function reportPayments(config: Config, db: Db, logger: Logger, admin: string): Promise<void> {
  try {
    const r = await paymentsReadiness(db, config.payments);
    if (!r) return;
    const fields = { component: 'payments', payments: config.payments, seller: r.seller };
    if (r.problem) {
      logger.warn({ ...fields, fix: `${admin} invoice-settings set --company-name '...' --address '...'` },
        `top-ups are refused (PAYMENTS=${config.payments}): ${r.problem}; set them with the command in "fix" (hostcloud admin invoice-settings set)`);
    } else {
      logger.info(fields, `payments ready (PAYMENTS=${config.payments}); invoices name ${r.seller}${r.demo ? ' (the demo seller)' : ''}`);
    }
  } catch (err) {
    logger.warn({ err, component: 'payments' }, 'could not read the invoice settings at start');
  }
}
