import { Type } from '@sinclair/typebox';
import { replyToTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { MessageField } from './create-ticket.ts';
import { TicketDetailSchema, TicketParams, ticketDetailView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/tickets/:id/replies', {
    config: { area: 'tickets' },
    schema: {
      operationId: 'createTicketReply',
      tags: ['Support tickets'],
      summary: 'Reply to a ticket',
      description: 'Adds your message to the thread; the ticket becomes `customer_reply`. Answers 201 with the ticket and its thread. '
        + 'A closed ticket cannot be replied to (409 `STATE_CONFLICT`): open a new one.',
      params: TicketParams,
      body: Type.Object({ message: MessageField }, { additionalProperties: false }),
      response: { 201: Envelope(TicketDetailSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const detail = await withCtx(deps, request, (ctx) => replyToTicket(ctx, request.params.id, request.body.message));
    reply.code(201);
    // A reply has no URL of its own: the thread that shows it.
    locate(reply, deps.config.publicUrl, 'v2', 'tickets', request.params.id);
    return reply.send(ok(request, ticketDetailView(detail)));
  });
}
