// POST /panel/api/links/:token/password: sets the password through an invitation or reset link
// (spent once). The person then signs in; every session they had ends. A reset may also revoke the
// account's API keys (a sub-user's: its own), with revoke_api_keys.
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
      body: Type.Object({
        password: Password,
        revoke_api_keys: Type.Optional(Type.Boolean({ description: 'A reset only: also revoke the account\'s API keys (a sub-user\'s own keys)' })),
      }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ email: Type.String(), revoked_api_keys: Type.Integer() })), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'VALIDATION_FAILED') },
    },
  }, async (request) => {
    await deps.throttle.check([addressKey(request)]);
    const r = await setPasswordWithLink(deps.db, request.params.token, request.body.password, deps.now(), { revokeApiKeys: request.body.revoke_api_keys });
    return ok(request, { email: r.user.email, revoked_api_keys: r.revokedApiKeys });
  });
}
