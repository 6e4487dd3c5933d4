import { deleteRecord } from '../../../core/dns/records.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DnsRecordSchema, RecordParams, recordView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/dns/zones/:id/records/:record_id', {
    config: { area: 'dns' },
    schema: {
      operationId: 'deleteDnsRecord',
      tags: ['DNS'],
      summary: 'Delete a DNS record',
      description: 'Removes the record and answers with it as it was; the nameservers stop answering it within seconds. The managed SOA and NS are '
        + '409 `STATE_CONFLICT`. Needs `dns:write`.',
      params: RecordParams,
      response: { 200: Envelope(DnsRecordSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, recordView(await withCtx(deps, request, (ctx) => deleteRecord(ctx, request.params.id, request.params.record_id)))));
}
