// DELETE /panel/api/sessions/:id: ends one of the person's sessions (another person's → 404).
import { Type } from '@sinclair/typebox';
import { revokeSession } from '../../../core/panel/sessions.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { type PanelDeps, identityOf } from '../deps.ts';
import { Done } from '../schemas.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.delete('/api/sessions/:id', {
    config: { auth: 'panel' },
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Envelope(Done), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    await revokeSession(deps.db, await identityOf(request, deps), request.params.id, deps.now());
    return ok(request, { done: true });
  });
}
