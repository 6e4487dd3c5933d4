import { getZone } from '../../../core/dns/zones.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DnsZoneSchema, ZoneParams, zoneView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/dns/zones/:id', {
    config: { area: 'dns' },
    schema: {
      operationId: 'getDnsZone',
      tags: ['DNS'],
      summary: 'Get a DNS zone',
      description: 'One zone, with its serial and `synced_at` (null while changes wait to be served). Another account\'s id is 404. Needs `dns:read`.',
      params: ZoneParams,
      response: { 200: Envelope(DnsZoneSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, zoneView(await withCtx(deps, request, (ctx) => getZone(ctx, request.params.id)))));
}
