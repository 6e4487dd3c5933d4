// `hostcloud worker`: the worker alone, for running several beside the API processes. It needs
// DATABASE_URL: the embedded database belongs to `hostcloud serve` (which runs its own worker).
import path from 'node:path';
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import { createLogger } from '../http/logger.ts';
import { guardProcess } from './process-guard.ts';
import { startWorker } from '../jobs/worker.ts';
import { renderV2Event } from '../http/v2/events/presenters.ts';
import { serveWorkerMetrics } from './worker-metrics.ts';
import { RUNNERS } from '../core/families.ts';
import { closeRegistrars, openStore, resolveAdminToken, servicesFor } from '../runtime.ts';
import { createTelemetry, observeDatabase } from '../telemetry/index.ts';

export async function work(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    throw new ConfigError('hostcloud worker needs DATABASE_URL; with the embedded database, `hostcloud serve` runs the worker itself (WORKER=embedded)');
  }
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  guardProcess(logger);
  const store = await openStore(config, undefined, { runsWorker: true, servesRequests: false });
  const telemetry = createTelemetry(logger, config.buildCommit);
  observeDatabase(telemetry, store.database);
  const admin = config.workerMetricsPort === null ? null : await resolveAdminToken(config, store.database.db);
  // A worker started before any `serve` makes the installation's token: it says where it put it.
  if (admin?.generated) logger.info({ file: path.join(config.dataDir, 'admin-token') }, 'made the installation\'s admin token');
  const metrics = config.workerMetricsPort === null ? null : await serveWorkerMetrics(telemetry.metrics, {
    host: config.host, port: config.workerMetricsPort, adminToken: admin!.secret, metricsToken: config.metricsToken, publicUrl: config.publicUrl,
  });
  if (metrics) logger.info({ url: `${metrics.url}/metrics` }, 'worker metrics listening');
  const worker = await startWorker({ db: store.database.db, ...servicesFor(config, store.database.db, telemetry, { worker: true }), runners: RUNNERS, config, logger, metrics: telemetry.metrics, renderEvent: renderV2Event });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    await worker.stop().catch((e) => logger.error({ err: e }, 'stopping worker'));
    await closeRegistrars().catch((e) => logger.error({ err: e }, 'closing registrar sessions'));
    // Every step is caught, as in serve.ts: a repeated signal no longer ends the process, so a
    // step that threw (a database fault is logged and otherwise let be) would leave it running.
    await metrics?.close().catch((e) => logger.error({ err: e }, 'closing metrics'));
    await store.close().catch((e) => logger.error({ err: e }, 'closing database'));
    process.exit(0);
  };
  // Kept for the whole shutdown, as in serve.ts: a second signal must not end it half-way.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
