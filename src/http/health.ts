import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.ts';
import { databaseReady } from '../core/health/readiness.ts';
import type { Db } from '../core/types.ts';

export async function registerHealthRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const config = { rateLimit: false, auth: 'none' as const };
  app.get('/healthz', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, schema: { hide: true } }, async () => {
    if (!(await databaseReady(opts.db))) throw new ApiError('SERVICE_UNAVAILABLE', 'The database is not reachable');
    return { status: 'ready' };
  });
}
