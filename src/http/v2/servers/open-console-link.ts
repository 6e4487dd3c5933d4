// The console link a browser opens: no API key (the signature in the URL is the credential).
import { Type } from '@sinclair/typebox';
import { attachToken, checkConsoleLink, consoleSigningKey, redeemConsoleLink } from '../../../core/servers/console.ts';
import { consolePage } from '../../console/page.ts';
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

/** The page's scripts and socket are our own origin's; nothing else loads. */
const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A browser asks for HTML before JSON; API clients (and no Accept at all) get JSON. */
function wantsPage(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html >= 0 && (json < 0 || html < json);
}

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
        + 'A browser (`Accept: text/html`) gets the terminal page: xterm.js connected through a WebSocket on this server to the server\'s console '
        + '(the platform\'s console is never exposed); the page attaches once, within a minute. Other clients get the JSON answer below. '
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
    const { ticket } = request.params;
    const { sandbox } = await redeemConsoleLink(deps.services.compute, key, { ticket, ...request.query }, deps.now());
    // A link is a one-time secret: no cache may keep the page or replay it.
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
    if (wantsPage(request.headers.accept)) {
      // A browser: the terminal page, whose WebSocket attaches once with a token good for a minute.
      const { expires, token } = attachToken(key, ticket, deps.now());
      const socket = sandbox ? null : `/v2/console/${encodeURIComponent(ticket)}/attach?expires=${expires}&token=${token}`;
      return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', CONSOLE_CSP).header('X-Content-Type-Options', 'nosniff')
        .send(consolePage({ socket, assetBase: '/v2/console-assets' }) as never);
    }
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
