// The login link a browser opens: no API key (the signature in the URL is the credential).
import { Type } from '@sinclair/typebox';
import { checkHostingLoginLink, openHostingLoginLink } from '../../../core/hosting/login.ts';
import { linkSigningKey } from '../../../core/signed-links.ts';
import { HOSTING_PAGE_SESSION_S } from '../../../core/hosting/page-sessions.ts';
import { setHostingCookie } from '../../hosting-cookie.ts';
import { V2_VERSION } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, component, errorResponses } from '../../schemas.ts';

const Params = Type.Object({ ticket: Type.String({ minLength: 1, maxLength: 256, description: 'The login ticket (part of the link).' }) });
const Query = Type.Object({
  expires: Type.String({ maxLength: 20, description: 'Unix time the link expires (part of the link).' }),
  signature: Type.String({ maxLength: 128, description: 'The link\'s signature (part of the link).' }),
  sandbox: Type.Optional(Type.String({ maxLength: 1, description: '`1` on a test key\'s link (part of the link).' })),
}, { additionalProperties: false });

const SandboxOpened = component('HostingLoginSandbox', Type.Object({
  status: StringEnum(['sandbox'] as const),
  message: Type.String({ examples: ['Sandbox link: valid, but no control panel exists behind a test key.'] }),
  sandbox: Type.Boolean({ description: 'Always true.' }),
}, { description: "A test key's login link, opened: no control panel exists behind it." }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/web-hosting-login/:ticket', {
    config: { auth: 'none' },
    // A HEAD (link previews, prefetchers) must not spend the single use: it has a route of its own below.
    exposeHeadRoute: false,
    schema: {
      operationId: 'openWebHostingLoginLink',
      tags: ['Web hosting'],
      summary: 'Open a control-panel login link',
      description: 'The `login_url` of `getWebHostingLogin`, opened in a browser: no API key, the signature in the URL is the credential. '
        + 'It answers 302 to the account\'s hosting page in the customer panel (`/panel/web-hosting/{id}`), once, with a cookie that opens '
        + 'that page alone for an hour: a forged link is 404 `RESOURCE_NOT_FOUND`, a used or expired one (or an account no longer active) '
        + '409 `STATE_CONFLICT`. '
        + "A test key's link answers 200 instead, since no panel exists behind it. Answers are never cached. "
        + '`HEAD` checks the link without opening it (link previews and prefetchers cannot spend it): 204 while GET would open it, '
        + 'else 404 or 409 as GET would answer.',
      security: [],
      params: Params,
      querystring: Query,
      response: {
        200: Envelope(SandboxOpened),
        302: Type.Null({ description: 'Found: to the hosting page (`Location`), with the `hc_hosting` cookie of its session.' }),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    const key = await linkSigningKey(deps.db);
    const opened = await openHostingLoginLink(deps.db, key, { ticket: request.params.ticket, ...request.query }, deps.now());
    // A link is a one-time secret: no cache may keep the answer or replay it.
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
    if (!opened.sandbox) {
      setHostingCookie(request, reply, deps.config.publicUrl, opened.token, HOSTING_PAGE_SESSION_S);
      return reply.redirect(`/panel/web-hosting/${encodeURIComponent(opened.hostingId)}`, 302);
    }
    const data = { status: 'sandbox' as const, message: 'Sandbox link: valid, but no control panel exists behind a test key.', sandbox: true };
    return { data, meta: { request_id: request.id, version: V2_VERSION, sandbox: true } };
  });

  app.route({
    method: 'HEAD',
    url: '/web-hosting-login/:ticket',
    config: { auth: 'none' },
    schema: {
      hide: true,
      params: Params,
      querystring: Query,
      response: { 204: Type.Null({ description: 'GET would open the link now.' }), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
    handler: async (request, reply) => {
      await checkHostingLoginLink(deps.db, await linkSigningKey(deps.db), { ticket: request.params.ticket, ...request.query }, deps.now());
      return reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').code(204).send(null);
    },
  });
}
