import { Type } from '@sinclair/typebox';
import { createRecord } from '../../../core/dns/records.ts';
import { RECORDS_MAX } from '../../../core/dns/rules.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DnsRecordSchema, RecordContent, RecordName, RecordPriority, RecordTtl, RecordType, ZoneParams, recordView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/dns/zones/:id/records', {
    config: { area: 'dns' },
    schema: {
      operationId: 'createDnsRecord',
      tags: ['DNS'],
      summary: 'Add a DNS record',
      description: `Adds a record; the nameservers answer it within seconds (the zone's \`serial\` rises, \`synced_at\` is null until then).

422 \`VALIDATION_FAILED\` names the field: \`content\` that does not fit the type, a CNAME at the apex or beside other records at its name
(or another record beside a CNAME), \`ttl\` outside 60–86400, MX or SRV without \`priority\` (or a priority on another type), a \`name\`
outside the zone. At most ${RECORDS_MAX} records per zone (the managed ones not counted): 422 \`QUOTA_EXCEEDED\`. The apex NS records are
the service's: an NS at \`@\` is 409, as is the same record twice. Needs \`dns:write\`.`,
      params: ZoneParams,
      body: Type.Object({
        name: RecordName,
        type: RecordType,
        content: RecordContent,
        ttl: Type.Optional(RecordTtl),
        priority: Type.Optional(RecordPriority),
      }, {
        additionalProperties: false,
        'x-examples': {
          a: { summary: 'An address', value: { name: 'www', type: 'A', content: '192.0.2.10', ttl: 300 } },
          mx: { summary: 'Mail', value: { name: '@', type: 'MX', content: 'mail.example.com', priority: 10 } },
          txt: { summary: 'SPF', value: { name: '@', type: 'TXT', content: 'v=spf1 mx -all' } },
          caa: { summary: 'CAA', value: { name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"' } },
          srv: { summary: 'A service', value: { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', priority: 10 } },
        },
      }),
      response: { 201: Envelope(DnsRecordSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'QUOTA_EXCEEDED') },
    },
  }, async (request, reply) => {
    const view = recordView(await withCtx(deps, request, (ctx) => createRecord(ctx, request.params.id, request.body)));
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'v2', 'dns', 'zones', request.params.id, 'records', view.id);
    return reply.send(ok(request, view));
  });
}
