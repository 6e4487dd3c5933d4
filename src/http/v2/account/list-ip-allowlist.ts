import { Type } from '@sinclair/typebox';
import { listKeyAllowlist } from '../../../core/api-keys/service.ts';
import { page, pageOf } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { IpAllowlistEntrySchema, allowlistEntryView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/account/ip-allowlist', {
    config: { area: 'account' },
    schema: {
      operationId: 'listIpAllowlist',
      tags: ['Account'],
      summary: 'List the IP allowlist of this key',
      description: 'The addresses and networks the calling key may be used from. Every key has one; changing it is done in the web panel.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(IpAllowlistEntrySchema), ...errorResponses() },
    },
  }, async (request) => {
    const entries = await listKeyAllowlist(db, callerOf(request).keyId, pageOf(request.query));
    return page(request, entries, allowlistEntryView);
  });
}
