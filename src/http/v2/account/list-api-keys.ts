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
      operationId: 'listApiKeys',
      tags: ['Account'],
      summary: 'List API keys',
      description: 'Metadata of the account\'s keys; key values are never returned. Keys are created and revoked in the web panel.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(ApiKeySchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listApiKeys(db, callerOf(request).accountId, pageOf(request.query)), apiKeyView));
}
