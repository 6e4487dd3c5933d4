// GET /panel/api/links/:token: what a mailed link is for (the page shows the matching form),
// without spending it. 404 for a token that never existed, 409 for one used or expired.
import { Type } from '@sinclair/typebox';
import { readLink } from '../../../core/panel/links.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import type { PanelDeps } from '../deps.ts';

export const Token = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/links/:token', {
    config: { auth: 'panel-open' },
    schema: {
      params: Token,
      response: {
        200: Envelope(Type.Object({ kind: StringEnum(['invitation', 'password_reset', 'email_verification'] as const), email: Type.String(), expires_at: Type.String() })),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const link = await readLink(deps.db, request.params.token, deps.now());
    return ok(request, { kind: link.kind, email: link.email, expires_at: link.expiresAt.toISOString() });
  });
}
