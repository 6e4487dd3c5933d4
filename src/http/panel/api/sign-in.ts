// POST /panel/api/sign-in: email and password. Starts a session (the cookie); with two-factor on
// the session waits for a code (POST /panel/api/sign-in/code). Throttled per email and address:
// the attempt is counted before the password is checked (core/panel/throttle.ts).
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.ts';
import { signIn } from '../../../core/panel/sessions.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import { setSessionCookie } from '../cookies.ts';
import { type PanelDeps, addressKey, clientMeta } from '../deps.ts';
import { Email, Password } from '../schemas.ts';
import { forgetSession } from '../session-auth.ts';
import { TOTP_STAGE_S } from '../../../core/panel/sessions.ts';
import { emailKey } from '../../../core/panel/throttle.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/sign-in', {
    config: { auth: 'panel-open' },
    schema: {
      body: Type.Object({ email: Email, password: Password }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ next: StringEnum(['totp', 'done'] as const) })), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    const result = await deps.throttle.attempt([emailKey(request.body.email), addressKey(request)],
      (e) => e instanceof ApiError && e.code === 'AUTH_INVALID',
      () => signIn(deps.db, request.body.email, request.body.password, clientMeta(request), deps.now(), deps.sessions));
    forgetSession(request);
    setSessionCookie(request, reply, deps.config.publicUrl, result.token, result.next === 'totp' ? TOTP_STAGE_S : deps.sessions.maxS);
    return ok(request, { next: result.next });
  });
}
