import { Type } from '@sinclair/typebox';
import { getApiKey } from '../../../core/api-keys/service.ts';
import { page, pageOf } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { IpAllowlistEntrySchema, allowlistEntryView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/account/ip-allowlist', {
    config: { area: 'account' },
    schema: {
      tags: ['Account'],
      summary: 'IP allowlist of the calling key',
      querystring: Type.Object(PageQuery()),
      response: { 200: ListEnvelope(IpAllowlistEntrySchema), ...errorResponses },
    },
  }, async (request) => {
    const key = await getApiKey(db, callerOf(request).keyId);
    const { page: p, perPage } = pageOf(request.query);
    const items = key.ip_allowlist.slice((p - 1) * perPage, p * perPage);
    return page(request, { items, page: p, perPage, total: key.ip_allowlist.length }, allowlistEntryView);
  });
}
