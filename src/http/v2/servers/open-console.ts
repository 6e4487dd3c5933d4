// The console link a browser opens: no API key (the signature in the URL is the credential).
import { Type } from '@sinclair/typebox';
import { consoleSigningKey, redeemConsoleLink } from '../../../core/servers/console.ts';
import { V2_VERSION } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';

const Opened = Type.Object({
  status: StringEnum(['opened'] as const),
  message: Type.String(),
  sandbox: Type.Boolean({ description: 'true for a test key link: no console exists behind it' }),
}, { title: 'ConsoleOpened' });

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/console/:ticket', {
    config: { auth: 'none' },
    // GET only: a HEAD (link previews, prefetchers) must not spend the single use.
    exposeHeadRoute: false,
    schema: {
      tags: ['Servers'],
      summary: 'Open a console link from GET /servers/{id}/console (once; 404 if forged, 409 if used or expired)',
      security: [],
      params: Type.Object({ ticket: Type.String({ minLength: 1, maxLength: 256 }) }),
      querystring: Type.Object({
        expires: Type.String({ maxLength: 20, description: 'Unix time the link expires' }),
        signature: Type.String({ maxLength: 128 }),
        sandbox: Type.Optional(Type.String({ maxLength: 1 })),
      }),
      response: { 200: Envelope(Opened), ...errorResponses },
    },
  }, async (request, reply) => {
    const key = await consoleSigningKey(deps.db);
    const { sandbox } = await redeemConsoleLink(deps.services.compute, key, { ticket: request.params.ticket, ...request.query }, deps.now());
    // A link is a one-time secret: no cache may keep the page or replay it.
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
    const message = sandbox
      ? 'Sandbox link: valid, but no console session exists behind a test key.'
      : 'The console session is open; this link cannot be used again.';
    return { data: { status: 'opened' as const, message, sandbox }, meta: { request_id: request.id, version: V2_VERSION, ...(sandbox ? { sandbox: true } : {}) } };
  });
}
