import { closeTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { TicketDetailSchema, TicketParams, ticketDetailView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/tickets/:id/close', {
    config: { area: 'tickets' },
    schema: {
      operationId: 'closeTicket',
      tags: ['Support tickets'],
      summary: 'Close a ticket',
      description: 'Marks the ticket `closed` (with `closed_at`). Closing a closed ticket is 409 `STATE_CONFLICT`. No body.',
      params: TicketParams,
      response: { 200: Envelope(TicketDetailSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, ticketDetailView(await withCtx(deps, request, (ctx) => closeTicket(ctx, request.params.id)))));
}
