import { Type } from '@sinclair/typebox';
import { resetHostingDatabasePassword } from '../../../core/hosting/site.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { HostingDatabaseCredentialsSchema, HostingDatabaseParams, databaseCredentials } from './site-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/web-hosting/:id/databases/:database/password', {
    config: { area: 'hosting', hostingPage: true },
    schema: {
      operationId: 'resetWebHostingDatabasePassword',
      tags: ['Web hosting'],
      summary: 'Set a new database password',
      description: 'Sets a new random password for the database\'s user and answers with it, this once (never stored, listed or logged); '
        + 'the previous one stops working, so update the site\'s configuration. A database the account does not have is 404; an account '
        + 'that is not `active` 409; a read-only caller 403. A test key changes nothing.',
      params: HostingDatabaseParams,
      body: Type.Optional(Type.Object({}, { additionalProperties: false, description: 'Nothing to send.' })),
      response: { 200: Envelope(HostingDatabaseCredentialsSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request, reply) => {
    const made = await withCtx(deps, request, (ctx) => resetHostingDatabasePassword(ctx, request.params.id, request.params.database));
    reply.header('Cache-Control', 'no-store');
    return ok(request, databaseCredentials(made.name, made.password));
  });
}
