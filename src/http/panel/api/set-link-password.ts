// POST /panel/api/links/:token/password: sets the password through an invitation or reset link
// (spent once). The person then signs in; every session they had ends.
import { Type } from '@sinclair/typebox';
import { setPasswordWithLink } from '../../../core/panel/links.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, addressKey } from '../deps.ts';
import { Password } from '../schemas.ts';
import { Token } from './get-link.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/links/:token/password', {
    config: { auth: 'panel-open' },
    schema: {
      params: Token,
      body: Type.Object({ password: Password }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ email: Type.String() })), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'VALIDATION_FAILED') },
    },
  }, async (request) => {
    await deps.throttle.check([addressKey(request)]);
    const user = await setPasswordWithLink(deps.db, request.params.token, request.body.password, deps.now());
    return ok(request, { email: user.email });
  });
}
