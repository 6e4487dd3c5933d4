import type { Config } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { createLogger } from '../http/logger.ts';
import { startWorker, type Worker } from '../jobs/worker.ts';
import { computeFor, openStore, rateLimiterFor, resolveAdminToken, servicesFor } from '../runtime.ts';
import { createTelemetry, observeDatabase } from '../telemetry/index.ts';

export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const store = await openStore(config, (m) => logger.debug({ component: 'postgres' }, m));
  const { token, generated } = await resolveAdminToken(config);
  const rateLimiter = rateLimiterFor(config);
  const telemetry = createTelemetry(logger);
  observeDatabase(telemetry, store.database);
  const services = servicesFor(config, store.database.db, telemetry);
  const app = await buildApp({ config, db: store.database.db, rateLimiter, adminToken: token, telemetry, services });
  let worker: Worker | null = null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop taking requests and let in-flight ones finish, then release the database.
    await app.close().catch((e) => logger.error({ err: e }, 'closing http'));
    await worker?.stop().catch((e) => logger.error({ err: e }, 'stopping worker'));
    await rateLimiter.close();
    await store.close().catch((e) => logger.error({ err: e }, 'closing database'));
    process.stdout.write('  Hostcloud stopped cleanly.\n');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const where = store.embedded ? `embedded PostgreSQL in ${config.dataDir}/pg` : 'DATABASE_URL';
  process.stdout.write([
    '',
    `  Hostcloud is listening on http://${config.host}:${port}  (public URL ${config.publicUrl})`,
    `  Database: ${where}; rate limits: ${config.redisUrl ? 'Redis' : 'in-process'}; worker: ${config.worker}`,
    // Printed in full once, when it is made; afterwards only recognisably, so restarts do not
    // keep writing the secret into service logs.
    generated
      ? `  Admin token (new, saved in ${config.dataDir}/admin-token): ${token}`
      : `  Admin token: ${token.slice(0, 10)}… (${config.adminToken ? 'from ADMIN_TOKEN' : `in ${config.dataDir}/admin-token`})`,
    `  Try: curl -s http://${config.host}:${port}/healthz`,
    `       DATA_DIR=${config.dataDir} npx hostcloud admin --url http://127.0.0.1:${port} accounts create \\
         --email you@example.com --name You --deposit 100 --key 127.0.0.1/32`,
    '',
  ].join('\n') + '\n');
  if (config.worker === 'embedded') {
    worker = await startWorker({ db: store.database.db, compute: computeFor(config, store.database.db, telemetry), config, logger });
  }
}
