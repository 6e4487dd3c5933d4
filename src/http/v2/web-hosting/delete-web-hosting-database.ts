import { dropHostingDatabase } from '../../../core/hosting/site.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { HostingDatabaseDroppedSchema, HostingDatabaseParams } from './site-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/web-hosting/:id/databases/:database', {
    config: { area: 'hosting', hostingPage: true },
    schema: {
      operationId: 'deleteWebHostingDatabase',
      tags: ['Web hosting'],
      summary: 'Drop a database',
      description: 'Drops the database with every table in it, and its user: it cannot be undone (the hosting page asks first). '
        + 'A database the account does not have is 404; an account that is not `active` 409; a read-only caller 403. A test key changes nothing.',
      params: HostingDatabaseParams,
      response: { 200: Envelope(HostingDatabaseDroppedSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    await withCtx(deps, request, (ctx) => dropHostingDatabase(ctx, request.params.id, request.params.database));
    return ok(request, { name: request.params.database, dropped: true });
  });
}
