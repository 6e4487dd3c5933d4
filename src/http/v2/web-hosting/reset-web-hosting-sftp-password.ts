import { Type } from '@sinclair/typebox';
import { resetHostingSftpPassword } from '../../../core/hosting/site.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebHostingParams } from './presenters.ts';
import { HostingSftpPasswordSchema } from './site-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/web-hosting/:id/sftp-password', {
    config: { area: 'hosting', hostingPage: true },
    schema: {
      operationId: 'resetWebHostingSftpPassword',
      tags: ['Web hosting'],
      summary: 'Set a new SFTP password',
      description: 'Sets a new random SFTP password for the account\'s user and answers with it, this once: it is not stored, and no list, '
        + 'log or event shows it. The previous password stops working. Only an `active` account (else 409 `STATE_CONFLICT`); '
        + 'a read-only caller (`hosting:read` only, or a hosting page opened by their link) is 403. A test key changes nothing.',
      params: WebHostingParams,
      body: Type.Optional(Type.Object({}, { additionalProperties: false, description: 'Nothing to send.' })),
      response: { 200: Envelope(HostingSftpPasswordSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request, reply) => {
    const answer = await withCtx(deps, request, (ctx) => resetHostingSftpPassword(ctx, request.params.id));
    reply.header('Cache-Control', 'no-store');
    return ok(request, answer);
  });
}
