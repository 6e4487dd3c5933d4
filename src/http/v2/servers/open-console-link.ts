// The console link a browser opens: no API key (the signature in the URL is the credential).
import { Type } from '@sinclair/typebox';
import { checkConsoleLink, consoleSigningKey, redeemConsoleLink } from '../../../core/servers/console.ts';
import { V2_VERSION } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, component, errorResponses } from '../../schemas.ts';

const Params = Type.Object({ ticket: Type.String({ minLength: 1, maxLength: 256, description: 'The console ticket (part of the link).' }) });
const Query = Type.Object({
  expires: Type.String({ maxLength: 20, description: 'Unix time the link expires (part of the link).' }),
  signature: Type.String({ maxLength: 128, description: 'The link\'s signature (part of the link).' }),
  sandbox: Type.Optional(Type.String({ maxLength: 1, description: '`1` on a test key\'s link (part of the link).' })),
}, { additionalProperties: false });

const Opened = component('ConsoleOpened', Type.Object({
  status: StringEnum(['opened'] as const),
  message: Type.String({ examples: ['The console session is open; this link cannot be used again.'] }),
  sandbox: Type.Boolean({ description: 'true for a test key link: no console exists behind it' }),
}, { description: 'A console link, spent.' }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/console/:ticket', {
    config: { auth: 'none' },
    // A HEAD (link previews, prefetchers) must not spend the single use: it has a route of its own below.
    exposeHeadRoute: false,
    schema: {
      operationId: 'openConsoleLink',
      tags: ['Servers'],
      summary: 'Open a console link',
      description: 'The `viewer_url` of `getServerConsole`, opened in a browser: no API key, the signature in the URL is the credential. '
        + 'It opens once: a forged link is 404 `RESOURCE_NOT_FOUND`, a used or expired one 409 `STATE_CONFLICT`. The answer is never cached. '
        + '`HEAD` checks the link without opening it (link previews and prefetchers cannot spend it): 204 while it is genuine and unexpired, '
        + 'else 404 or 409 as above; whether a genuine link was already used only opening it tells.',
      security: [],
      params: Params,
      querystring: Query,
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

  app.route({
    method: 'HEAD',
    url: '/console/:ticket',
    config: { auth: 'none' },
    schema: {
      hide: true,
      params: Params,
      querystring: Query,
      response: { 204: Type.Null({ description: 'The link is genuine and unexpired; GET opens it.' }), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
    handler: async (request, reply) => {
      checkConsoleLink(await consoleSigningKey(deps.db), { ticket: request.params.ticket, ...request.query }, deps.now());
      return reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').code(204).send(null);
    },
  });
}
