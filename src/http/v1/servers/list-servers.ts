import { Type } from '@sinclair/typebox';
import { listServers } from '../../../core/servers/read.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1ServerListItem, statusFilter, v1ListItem } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET',
    url: '/servers',
    area: 'servers',
    operationId: 'listServers',
    tag: 'Servers',
    summary: 'List servers',
    description: 'The account\'s servers, newest first; deleted servers are left out.',
    querystring: Type.Object({
      ...V1PageQuery('per_page'),
      status: Type.Optional(Type.String({ enum: ['active', 'stopped', 'suspended'], description: 'Only servers in this status.' })),
    }, { additionalProperties: false }),
    response: V1List(V1ServerListItem),
    handler: async (request) => {
      const q = request.query;
      const filter = statusFilter(q.status as 'active' | 'stopped' | 'suspended' | undefined);
      const result = await withCtx(deps, request, (ctx) => listServers(ctx, filter, { page: q.page, perPage: q.per_page }));
      return v1page(result, v1ListItem);
    },
  });
}
