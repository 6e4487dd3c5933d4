import { Type } from '@sinclair/typebox';
import { TICKET_STATUSES } from '../../../core/tickets/rules.ts';
import { listTickets } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { TicketSchema, ticketView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/tickets', {
    config: { area: 'tickets' },
    schema: {
      operationId: 'listTickets',
      tags: ['Support tickets'],
      summary: 'List tickets',
      description: 'The account\'s support tickets, newest first, without their threads (read a ticket for those). Deleted tickets are excluded.',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(TICKET_STATUSES, { description: 'Only tickets in this status.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(TicketSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listTickets(ctx, request.query.status, pageOf(request.query)));
    return page(request, result, ticketView);
  });
}
