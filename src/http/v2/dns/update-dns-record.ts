import { Type } from '@sinclair/typebox';
import { updateRecord } from '../../../core/dns/records.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DnsRecordSchema, RecordContent, RecordName, RecordParams, RecordPriority, RecordTtl, recordView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.patch('/dns/zones/:id/records/:record_id', {
    config: { area: 'dns' },
    schema: {
      operationId: 'updateDnsRecord',
      tags: ['DNS'],
      summary: 'Change a DNS record',
      description: 'Changes what is given (the type stays), checked as a new record is; served within seconds. The managed SOA and NS are 409 '
        + '`STATE_CONFLICT`. Needs `dns:write`.',
      params: RecordParams,
      body: Type.Object({
        name: Type.Optional(RecordName),
        content: Type.Optional(RecordContent),
        ttl: Type.Optional(RecordTtl),
        priority: Type.Optional(RecordPriority),
      }, { additionalProperties: false, 'x-examples': { move: { summary: 'A new address', value: { content: '192.0.2.20' } } } }),
      response: { 200: Envelope(DnsRecordSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, recordView(await withCtx(deps, request, (ctx) => updateRecord(ctx, request.params.id, request.params.record_id, request.body)))));
}
