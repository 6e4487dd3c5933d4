// GET /panel/impersonation/:ticket: the link POST /admin/v1/accounts/{id}/impersonation hands a
// staff member, opened in a browser. No credential but the link's signature: it spends the link,
// sets the panel session cookie of the impersonation and answers 302 to /panel. A forged link is
// 404, a used or expired one (or a disabled member, an account no longer active) 409.
import { Type } from '@sinclair/typebox';
import { openImpersonationLink } from '../../../core/staff/impersonation.ts';
import { linkSigningKey } from '../../../core/signed-links.ts';
import type { TypedApp } from '../../route-types.ts';
import { errorResponses } from '../../schemas.ts';
import { setSessionCookie } from '../cookies.ts';
import { type PanelDeps, clientMeta } from '../deps.ts';
import { forgetSession } from '../session-auth.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/impersonation/:ticket', {
    config: { auth: 'none' },
    // A HEAD (link previews, prefetchers) must not spend the single use: it gets the page instead.
    exposeHeadRoute: false,
    schema: {
      params: Type.Object({ ticket: Type.String({ minLength: 1, maxLength: 256 }) }),
      querystring: Type.Object({
        expires: Type.String({ maxLength: 20 }),
        signature: Type.String({ maxLength: 128 }),
        sandbox: Type.Optional(Type.String({ maxLength: 1 })),
      }, { additionalProperties: false }),
      response: { 302: Type.Null(), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const key = await linkSigningKey(deps.db);
    const opened = await openImpersonationLink(deps.db, key, { ticket: request.params.ticket, ...request.query }, clientMeta(request), deps.now(), deps.sessions);
    // A link is a one-time secret: no cache may keep the answer or replay it.
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
    forgetSession(request);
    setSessionCookie(request, reply, deps.config.publicUrl, opened.token, opened.maxAgeS);
    return reply.redirect('/panel', 302);
  });
}
