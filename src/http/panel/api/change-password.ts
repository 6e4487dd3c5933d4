// POST /panel/api/password: a new password, given the current one; every other session ends.
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.ts';
import { changePassword } from '../../../core/panel/account.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { Done, Password } from '../schemas.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/password', {
    config: { auth: 'panel', impersonation: 'never' },
    schema: {
      body: Type.Object({ current_password: Password, new_password: Password }, { additionalProperties: false }),
      response: { 200: Envelope(Done), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request) => {
    const identity = await identityOf(request, deps);
    await deps.throttle.attempt([`code:${identity.userId}`],
      (e) => e instanceof ApiError && e.errors.some((f) => f.field === 'current_password'),
      () => changePassword(deps.db, identity, request.body.current_password, request.body.new_password, deps.now()));
    return ok(request, { done: true });
  });
}
