// POST /panel/api/links/:token/verify-email: confirms a sign-up's email (the link is spent once).
import { verifyEmailWithLink } from '../../../core/panel/links.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { Type } from '@sinclair/typebox';
import type { PanelDeps } from '../deps.ts';
import { Token } from './get-link.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.post('/api/links/:token/verify-email', {
    config: { auth: 'panel-open' },
    schema: {
      params: Token,
      response: { 200: Envelope(Type.Object({ email: Type.String() })), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const user = await verifyEmailWithLink(deps.db, request.params.token, deps.now());
    return ok(request, { email: user.email });
  });
}
