import { getTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { TicketDetailSchema, TicketParams, ticketDetailView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/tickets/:id', {
    config: { area: 'tickets' },
    schema: {
      operationId: 'getTicket',
      tags: ['Support tickets'],
      summary: 'Get a ticket with its thread',
      description: 'The ticket and every message of its thread, oldest first, each marked `customer` or `staff`. '
        + 'Support\'s internal notes are never shown. Another account\'s ticket number, or a deleted ticket, is 404.',
      params: TicketParams,
      response: { 200: Envelope(TicketDetailSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, ticketDetailView(await withCtx(deps, request, (ctx) => getTicket(ctx, request.params.id)))));
}
