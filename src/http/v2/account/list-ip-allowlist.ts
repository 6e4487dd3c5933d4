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
      description: 'The addresses and networks the calling key may be used from. Every key has one; changing it is done in the web panel. A panel session (no key) has none: the list is empty.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(IpAllowlistEntrySchema), ...errorResponses() },
    },
  }, async (request) => {
    const { keyId } = callerOf(request);
    const p = pageOf(request.query);
    // A panel session is no key: it has no allowlist of its own (the panel lists each key's).
    const entries = keyId === null ? { items: [], total: 0, ...p } : await listKeyAllowlist(db, keyId, p);
    return page(request, entries, allowlistEntryView);
  });
}
