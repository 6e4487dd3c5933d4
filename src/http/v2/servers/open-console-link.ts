// The console link a browser opens: no API key (the signature in the URL is the credential).
import { Type } from '@sinclair/typebox';
import { consoleSigningKey, redeemConsoleLink } from '../../../core/servers/console.ts';
import { V2_VERSION } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, component, errorResponses } from '../../schemas.ts';

const Opened = component('ConsoleOpened', Type.Object({
  status: StringEnum(['opened'] as const),
  message: Type.String({ examples: ['The console session is open; this link cannot be used again.'] }),
  sandbox: Type.Boolean({ description: 'true for a test key link: no console exists behind it' }),
}, { description: 'A console link, spent.' }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/console/:ticket', {
    config: { auth: 'none' },
    // GET only: a HEAD (link previews, prefetchers) must not spend the single use.
    exposeHeadRoute: false,
    schema: {
      operationId: 'openConsoleLink',
      tags: ['Servers'],
      summary: 'Open a console link',
      description: 'The `viewer_url` of `getServerConsole`, opened in a browser: no API key, the signature in the URL is the credential. '
        + 'It opens once: a forged link is 404 `RESOURCE_NOT_FOUND`, a used or expired one 409 `STATE_CONFLICT`. The answer is never cached.',
      security: [],
      params: Type.Object({ ticket: Type.String({ minLength: 1, maxLength: 256, description: 'The console ticket (part of the link).' }) }),
      querystring: Type.Object({
        expires: Type.String({ maxLength: 20, description: 'Unix time the link expires (part of the link).' }),
        signature: Type.String({ maxLength: 128, description: 'The link\'s signature (part of the link).' }),
        sandbox: Type.Optional(Type.String({ maxLength: 1, description: '`1` on a test key\'s link (part of the link).' })),
      }, { additionalProperties: false }),
      response: { 200: Envelope(Opened), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR') },
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
