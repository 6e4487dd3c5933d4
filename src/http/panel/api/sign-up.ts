// POST /panel/api/sign-up (PANEL_SIGNUP=open): email and name only — a new account with a zero
// balance; its owner chooses a password through the mailed link (which confirms the address), then
// signs in. Answers 202 the same whatever the email.
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.ts';
import { signUp } from '../../../core/panel/sign-up.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, addressKey, panelUrl } from '../deps.ts';
import { Email } from '../schemas.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/sign-up', {
    config: { auth: 'panel-open' },
    schema: {
      body: Type.Object({ email: Email, name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
      response: { 202: Envelope(Type.Object({ message: Type.String() })), ...errorResponses('VALIDATION_FAILED', 'ENDPOINT_NOT_FOUND') },
    },
  }, async (request, reply) => {
    if (deps.config.panelSignup !== 'open') throw new ApiError('ENDPOINT_NOT_FOUND', 'Sign-up is closed: ask your provider for an invitation');
    // Each sign-up mails someone: it spends the address's sign-in budget, so mail cannot be sprayed.
    await deps.throttle.take([addressKey(request)]);
    await signUp(deps.db, request.body, panelUrl(deps), deps.now());
    reply.code(202);
    return ok(request, { message: `We sent a link to ${request.body.email.trim()}: open it to choose your password, then sign in.` });
  });
}
