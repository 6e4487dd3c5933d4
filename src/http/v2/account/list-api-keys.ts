import { Type } from '@sinclair/typebox';
import { listApiKeys } from '../../../core/api-keys/service.ts';
import { page, pageOf } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { ApiKeySchema, apiKeyView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/account/api-keys', {
    config: { area: 'account' },
    schema: {
      tags: ['Account'],
      summary: 'API key metadata of the account; key values are never returned',
      querystring: Type.Object(PageQuery()),
      response: { 200: ListEnvelope(ApiKeySchema), ...errorResponses },
    },
  }, async (request) => page(request, await listApiKeys(db, callerOf(request).accountId, pageOf(request.query)), apiKeyView));
}
