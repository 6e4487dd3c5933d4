// The process under load: `hello` is a bare Fastify hello-world (the baseline); `app` is Hostcloud
// on DATABASE_URL with logging off, no rate limit to speak of, and no worker. Prints its port.
import Fastify from 'fastify';
import { loadConfig } from '../src/config.ts';
import { connect } from '../src/db/connection.ts';
import { buildApp } from '../src/http/app.ts';
import { createLogger } from '../src/http/logger.ts';
import { createRateLimiter } from '../src/http/rate-limit.ts';
import { servicesFor } from '../src/runtime.ts';

const mode = process.argv[2];
let port: number;
if (mode === 'hello') {
  const app = Fastify();
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
} else {
  const config = { ...loadConfig(), rateLimitMax: 10_000_000, logLevel: 'silent', worker: 'off' as const, simDelayMs: 0 };
  const database = connect(config.databaseUrl!, { max: 20 });
  const app = await buildApp({
    config, db: database.db, adminToken: process.env.ADMIN_TOKEN!, logger: createLogger('silent'),
    rateLimiter: createRateLimiter({ max: config.rateLimitMax, windowS: 60 }), services: servicesFor(config, database.db),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
}
// A normal exit on SIGTERM, so `--cpu-prof` (BENCH_NODE_ARGS) can write its profile.
process.on('SIGTERM', () => process.exit(0));
process.stdout.write(`${port}\n`);
