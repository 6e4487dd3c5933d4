// DELETE /panel/api/api-keys/:id: revokes a key the person manages; any other id is 404.
import { Type } from '@sinclair/typebox';
import { revokeManagedApiKey } from '../../../core/api-keys/service.ts';
import { ok } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ApiKeySchema, apiKeyView } from '../../v2/presenters.ts';
import type { PanelDeps } from '../deps.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.delete('/api/api-keys/:id', {
    config: { auth: 'panel' },
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Envelope(ApiKeySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const caller = callerOf(request);
    return ok(request, apiKeyView(await revokeManagedApiKey(deps.db, caller.accountId, caller.subUserId, request.params.id, deps.now())));
  });
}
