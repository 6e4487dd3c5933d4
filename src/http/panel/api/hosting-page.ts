// GET /panel/api/hosting-page/{id}: the hosting page session this browser holds for a hosting
// account (a used login link), with the CSRF token for its writes — or 404 when it holds none
// (then the page needs a signed-in panel session). DELETE ends it ("Leave this page"). Both are
// open routes: the hosting session is not a panel session.
import { Type } from '@sinclair/typebox';
import { deleteHostingPageSession } from '../../../db/queries/hosting-page-sessions.ts';
import { ApiError } from '../../../core/errors.ts';
import { sha256 } from '../../../core/panel/secrets.ts';
import { ts } from '../../../core/time.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import { HOSTING_COOKIE, clearHostingCookie } from '../../hosting-cookie.ts';
import { cookiesOf } from '../cookies.ts';
import { checkCsrf, csrfToken } from '../csrf.ts';
import type { PanelDeps } from '../deps.ts';
import { hostingCsrfBinding, hostingPageOf } from '../hosting-page-auth.ts';
import { Done } from '../schemas.ts';
import { sessionOf } from '../session-auth.ts';

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });

const HostingPage = Type.Object({
  hosting_id: Type.String(),
  access: StringEnum(['read', 'write'] as const, { description: 'read: the link was made by someone with hosting:read only' }),
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token with the page\'s writes' }),
  expires_at: Type.String(),
});

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/hosting-page/:id', {
    config: { auth: 'panel-open' },
    schema: { params: Params, response: { 200: Envelope(HostingPage), ...errorResponses('RESOURCE_NOT_FOUND') } },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const page = await hostingPageOf(request, deps.db, deps.now());
    if (!page || page.hostingId !== request.params.id) throw new ApiError('RESOURCE_NOT_FOUND', 'No hosting page session for this account: open a new login link, or sign in');
    return ok(request, {
      hosting_id: page.hostingId, access: page.access, csrf_token: csrfToken(request, reply, deps.config.publicUrl, hostingCsrfBinding(page)), expires_at: ts(page.expiresAt),
    });
  });

  // Its CSRF token is the hosting session's (what the page holds in link mode) or, as on every
  // open route, the panel session's or the signed-out one: checked here, since the hook knows one.
  app.delete('/api/hosting-page/:id', {
    config: { auth: 'none' },
    schema: { params: Params, response: { 200: Envelope(Done), ...errorResponses('CSRF_TOKEN_INVALID') } },
  }, async (request, reply) => {
    const page = await hostingPageOf(request, deps.db, deps.now());
    const accepted = (binding: string) => {
      try {
        checkCsrf(request, binding);
        return true;
      } catch {
        return false;
      }
    };
    if (!(page && accepted(hostingCsrfBinding(page)))) checkCsrf(request, (await sessionOf(request, deps.db, deps.sessions, deps.now()))?.publicId ?? null);
    const token = cookiesOf(request)[HOSTING_COOKIE];
    if (token) await deleteHostingPageSession(deps.db, sha256(token));
    clearHostingCookie(request, reply, deps.config.publicUrl);
    return ok(request, { done: true });
  });
}
