import { Type } from '@sinclair/typebox';
import { createHostingDatabase } from '../../../core/hosting/site.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebHostingParams } from './presenters.ts';
import { HostingDatabaseCredentialsSchema, databaseCredentials } from './site-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/web-hosting/:id/databases', {
    config: { area: 'hosting', hostingPage: true },
    schema: {
      operationId: 'createWebHostingDatabase',
      tags: ['Web hosting'],
      summary: 'Create a database',
      description: 'Creates a MariaDB database and its user, both named `<user>_<name>`, with a random password shown this once. '
        + 'The package allows `database_limit` databases (`getWebHostingSite`): one more is 422 `QUOTA_EXCEEDED`. A name the account '
        + 'has already is 409 `STATE_CONFLICT`, as is an account that is not `active`; a read-only caller is 403. A test key changes nothing.',
      params: WebHostingParams,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 16, description: '1–16 lower-case letters and digits; the account\'s user name and `_` are put before it.', examples: ['shop'] }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(HostingDatabaseCredentialsSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'QUOTA_EXCEEDED', 'UPSTREAM_ERROR') },
    },
  }, async (request, reply) => {
    const made = await withCtx(deps, request, (ctx) => createHostingDatabase(ctx, request.params.id, request.body.name));
    // 200, not 201: a database has no address of its own to give as Location (the site lists it).
    reply.header('Cache-Control', 'no-store');
    return ok(request, databaseCredentials(made.name, made.password));
  });
}
