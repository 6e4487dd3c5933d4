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
      description: 'The account\'s servers, newest first; deleted servers are excluded. List items carry no live state (`power_state` is null): read a server for it.',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(['active', 'suspended', 'pending', 'cancelled'] as const, { description: 'Only servers in this status.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(ServerListItemSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listServers(ctx, { status: request.query.status }, pageOf(request.query)));
    return page(request, result, serverListItemView);
  });
}
