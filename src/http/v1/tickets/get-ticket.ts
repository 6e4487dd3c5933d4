import { getTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { TicketParams, V1TicketDetail } from './schemas.ts';
import { v1TicketDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/tickets/:ticket_id', area: 'tickets', operationId: 'getTicket', tag: 'Support',
    summary: 'Get a ticket',
    description: 'The ticket with every message of its thread, oldest first. Another account\'s ticket is 404.',
    params: TicketParams,
    response: V1Data(V1TicketDetail),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => v1ok(v1TicketDetail(await withCtx(deps, request, (ctx) => getTicket(ctx, request.params.ticket_id)))),
  });
}
