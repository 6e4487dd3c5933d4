import { Type } from '@sinclair/typebox';
import { listRecords } from '../../../core/dns/records.ts';
import { RECORD_TYPES } from '../../../core/dns/rules.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { DnsRecordSchema, ZoneParams, recordView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/dns/zones/:id/records', {
    config: { area: 'dns' },
    schema: {
      operationId: 'listDnsRecords',
      tags: ['DNS'],
      summary: 'List a zone\'s records',
      description: 'The zone\'s records: the managed SOA and NS first, then the others in the order they were added. Needs `dns:read`.',
      params: ZoneParams,
      querystring: Type.Object({
        ...PageQuery(),
        type: Type.Optional(StringEnum(['SOA', ...RECORD_TYPES] as const, { description: 'Only records of this type.' })),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'Only records at this name (`@`, `www`, or the full name).', examples: ['www'] })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(DnsRecordSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const q = request.query;
    return page(request, await withCtx(deps, request, (ctx) => listRecords(ctx, request.params.id, { type: q.type, name: q.name }, pageOf(q))), recordView);
  });
}
