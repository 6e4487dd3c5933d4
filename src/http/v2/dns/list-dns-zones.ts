import { Type } from '@sinclair/typebox';
import { listZones } from '../../../core/dns/zones.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { DnsZoneSchema, zoneView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/dns/zones', {
    config: { area: 'dns' },
    schema: {
      operationId: 'listDnsZones',
      tags: ['DNS'],
      summary: 'List DNS zones',
      description: 'The account\'s DNS zones, oldest first: those made with `createDnsZone` and those made for domains registered or transferred in. Needs `dns:read`.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(DnsZoneSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await withCtx(deps, request, (ctx) => listZones(ctx, pageOf(request.query))), zoneView));
}
