import { Type } from '@sinclair/typebox';
import { listServers } from '../../../core/servers/read.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { ServerListItemSchema, serverListItemView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers', {
    config: { area: 'servers' },
    schema: {
      operationId: 'listServers',
      tags: ['Servers'],
      summary: 'List servers',
      description: 'The account\'s servers, newest first; deleted servers are excluded. List items carry no live state (`power_state` is null) unless asked for with `include=power_state`; `include=location,primary_ip` adds where each runs and its address (a dashboard\'s list in one request).',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(['active', 'suspended', 'pending', 'cancelled'] as const, { description: 'Only servers in this status.' })),
        include: Type.Optional(Type.String({
          pattern: '^(power_state|location|primary_ip)(,(power_state|location|primary_ip))*$',
          description: 'Extras each item carries, comma-separated: `power_state` (live, read from the platform for this page in one request; a list without it answers faster), `location` (`location_id`), `primary_ip` (the primary IPv4 address). Without it, items are as the contract fixes them.',
          examples: ['power_state,location,primary_ip'],
        })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(ServerListItemSchema), ...errorResponses() },
    },
  }, async (request) => {
    const include = new Set(request.query.include?.split(',') ?? []);
    const result = await withCtx(deps, request, (ctx) => listServers(ctx, { status: request.query.status }, pageOf(request.query), { livePower: include.has('power_state') }));
    return page(request, result, (s) => serverListItemView(s, { location: include.has('location'), primaryIp: include.has('primary_ip') }));
  });
}
