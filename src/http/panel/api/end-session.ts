// DELETE /panel/api/session: ends this session and clears its cookie — the impersonation banner's
// "End" (audited as endImpersonation, whose read-only session may do this one write), and a
// sign-out for anyone else.
import { endPanelSession } from '../../../core/staff/impersonation.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { clearSessionCookie } from '../cookies.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { Done } from '../schemas.ts';
import { forgetSession } from '../session-auth.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.delete('/api/session', {
    config: { auth: 'panel', impersonation: 'always' },
    schema: { response: { 200: Envelope(Done), ...errorResponses() } },
  }, async (request, reply) => {
    const identity = await identityOf(request, deps);
    await endPanelSession(deps.db, identity, { ip: request.ip, requestId: request.id }, deps.now());
    forgetSession(request);
    clearSessionCookie(request, reply, deps.config.publicUrl);
    return ok(request, { done: true });
  });
}
