// POST /panel/api/password-reset: mails a single-use link to set a new password, if the email
// signs in to the panel. Answers 202 the same whatever the email.
import { Type } from '@sinclair/typebox';
import { requestPasswordReset } from '../../../core/panel/sign-up.ts';
import { emailKey } from '../../../core/panel/throttle.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, addressKey, panelUrl } from '../deps.ts';
import { Email } from '../schemas.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/password-reset', {
    config: { auth: 'panel-open' },
    schema: {
      body: Type.Object({ email: Email }, { additionalProperties: false }),
      response: { 202: Envelope(Type.Object({ message: Type.String() })), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    await deps.throttle.check([emailKey(request.body.email)]);
    await deps.throttle.take([addressKey(request)]);
    await requestPasswordReset(deps.db, request.body.email, panelUrl(deps), deps.now());
    reply.code(202);
    return ok(request, { message: `If ${request.body.email.trim()} signs in to the panel, a link to set a new password is on its way.` });
  });
}
