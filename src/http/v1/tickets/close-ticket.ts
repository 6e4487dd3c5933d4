import { closeTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { TicketParams, V1TicketDetail } from './schemas.ts';
import { v1TicketDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/tickets/:ticket_id/close', area: 'tickets', operationId: 'closeTicket', tag: 'Support',
    summary: 'Close a ticket',
    description: 'Marks the ticket `closed`. Closing a closed ticket is 422 `STATE_CONFLICT`. No body.',
    params: TicketParams,
    response: V1Data(V1TicketDetail),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => v1ok(v1TicketDetail(await withCtx(deps, request, (ctx) => closeTicket(ctx, request.params.ticket_id))), 'Ticket closed'),
  });
}
