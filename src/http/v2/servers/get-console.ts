import { consoleSigningKey, openConsoleSession } from '../../../core/servers/console.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ConsoleSessionSchema, consoleView } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/console', {
    config: { area: 'servers' },
    schema: {
      tags: ['Servers'],
      summary: 'A console URL for a running server: single use, valid 300 seconds, opened without an API key',
      params: ServerParams,
      response: { 200: Envelope(ConsoleSessionSchema), ...errorResponses },
    },
  }, async (request) => {
    // From the pool, before any sandbox transaction: a key created in one would be rolled back.
    const key = await consoleSigningKey(deps.db);
    const session = await withCtx(deps, request, (ctx) => openConsoleSession(ctx, request.params.id, key, deps.config.publicUrl));
    return ok(request, consoleView(session));
  });
}
