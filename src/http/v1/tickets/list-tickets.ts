import { Type } from '@sinclair/typebox';
import { TICKET_STATUSES, type TicketStatus } from '../../../core/tickets/rules.ts';
import { listTickets } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1TicketListItem } from './schemas.ts';
import { v1TicketListItem } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/tickets', area: 'tickets', operationId: 'listTickets', tag: 'Support',
    summary: 'List tickets',
    description: 'The account\'s tickets, newest first, without their threads.',
    querystring: Type.Object({
      ...V1PageQuery('per_page'),
      status: Type.Optional(Type.String({ enum: [...TICKET_STATUSES], description: 'Only tickets in this status.' })),
    }, { additionalProperties: false }),
    response: V1List(V1TicketListItem),
    handler: async (request) => {
      const q = request.query;
      const r = await withCtx(deps, request, (ctx) => listTickets(ctx, q.status as TicketStatus | undefined, { page: q.page, perPage: q.per_page }));
      return v1page(r, v1TicketListItem);
    },
  });
}
