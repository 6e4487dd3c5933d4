import { deleteZone } from '../../../core/dns/zones.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DnsZoneSchema, ZoneParams, zoneView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/dns/zones/:id', {
    config: { area: 'dns' },
    schema: {
      operationId: 'deleteDnsZone',
      tags: ['DNS'],
      summary: 'Delete a DNS zone',
      description: 'Deletes the zone and every record in it, and answers with the zone as it was; the nameservers stop answering for it within seconds. '
        + 'A domain\'s zone may be deleted too (its registration is not touched). Writes the `dns_zone.deleted` event. Needs `dns:write`.',
      params: ZoneParams,
      response: { 200: Envelope(DnsZoneSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, zoneView(await withCtx(deps, request, (ctx) => deleteZone(ctx, request.params.id)))));
}
