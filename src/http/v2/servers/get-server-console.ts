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
      operationId: 'getServerConsole',
      tags: ['Servers'],
      summary: 'Get a console link',
      description: 'A link to the console of a running server: our own signed URL (`openConsoleLink`), single use, valid 300 seconds, opened '
        + 'without an API key. The platform\'s own console socket is never exposed. A server that is not running is 409 `STATE_CONFLICT`.',
      params: ServerParams,
      response: { 200: Envelope(ConsoleSessionSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    // From the pool, before any sandbox transaction: a key created in one would be rolled back.
    const key = await consoleSigningKey(deps.db);
    const session = await withCtx(deps, request, (ctx) => openConsoleSession(ctx, request.params.id, key, deps.config.publicUrl));
    return ok(request, consoleView(session));
  });
}
