// POST /panel/api/sign-in/code: the second step of a sign-in with two-factor on — a code of the
// authenticator app or a recovery code. The waiting session is replaced by a full one.
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.ts';
import { completeSignIn } from '../../../core/panel/sessions.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import { setSessionCookie } from '../cookies.ts';
import { type PanelDeps, addressKey, clientMeta } from '../deps.ts';
import { Code } from '../schemas.ts';
import { forgetSession, sessionOf } from '../session-auth.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/sign-in/code', {
    config: { auth: 'panel-open' },
    schema: {
      body: Type.Object({ code: Code }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ next: StringEnum(['done'] as const) })), ...errorResponses('VALIDATION_FAILED', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const identity = await sessionOf(request, deps.db, deps.sessions, deps.now());
    if (!identity) throw new ApiError('AUTH_REQUIRED', 'Sign in with your email and password first (the code step lasts 5 minutes)');
    const started = await deps.throttle.attempt([`code:${identity.userId}`, addressKey(request)],
      (e) => e instanceof ApiError && e.code === 'VALIDATION_FAILED',
      () => completeSignIn(deps.db, identity, request.body.code, clientMeta(request), deps.now(), deps.sessions));
    forgetSession(request);
    setSessionCookie(request, reply, deps.config.publicUrl, started.token, deps.sessions.maxS);
    return ok(request, { next: 'done' as const });
  });
}
