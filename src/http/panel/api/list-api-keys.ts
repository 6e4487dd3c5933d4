// GET /panel/api/api-keys: the keys a person manages — every key of the account for its owner, its
// own for a sub-user — with prefix, last use and allowlist (never a secret).
import { Type } from '@sinclair/typebox';
import { listManagedApiKeys } from '../../../core/api-keys/service.ts';
import { page, pageOf } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { ApiKeySchema, apiKeyView } from '../../v2/presenters.ts';
import type { PanelDeps } from '../deps.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/api-keys', {
    config: { auth: 'panel' },
    schema: {
      querystring: Type.Object(PageQuery(100, 100), { additionalProperties: false }),
      response: { 200: ListEnvelope(ApiKeySchema), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request) => {
    const caller = callerOf(request);
    return page(request, await listManagedApiKeys(deps.db, caller.accountId, caller.subUserId, pageOf(request.query)), apiKeyView);
  });
}
