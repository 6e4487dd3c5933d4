// POST /panel/api/sign-out: ends this session and clears its cookie (a session already ended
// signs out just the same; an impersonation's end is audited, as its "End").
import { endPanelSession } from '../../../core/staff/impersonation.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { clearSessionCookie } from '../cookies.ts';
import type { PanelDeps } from '../deps.ts';
import { Done } from '../schemas.ts';
import { forgetSession, sessionOf } from '../session-auth.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/sign-out', {
    config: { auth: 'panel-open' },
    schema: { response: { 200: Envelope(Done), ...errorResponses() } },
  }, async (request, reply) => {
    const identity = await sessionOf(request, deps.db, deps.sessions, deps.now());
    if (identity) await endPanelSession(deps.db, identity, { ip: request.ip, requestId: request.id }, deps.now());
    forgetSession(request);
    clearSessionCookie(request, reply, deps.config.publicUrl);
    return ok(request, { done: true });
  });
}
