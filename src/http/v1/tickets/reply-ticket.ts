import { Type } from '@sinclair/typebox';
import { replyToTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { MessageField, TicketParams, V1TicketDetail } from './schemas.ts';
import { v1TicketDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/tickets/:ticket_id/reply', area: 'tickets', operationId: 'replyTicket', tag: 'Support',
    summary: 'Reply to a ticket',
    description: 'Adds your message; the ticket becomes `customer_reply`. Answers with the ticket and its thread. A closed ticket is '
      + '422 `STATE_CONFLICT`: open a new one.',
    params: TicketParams,
    body: Type.Object({ message: MessageField }, { additionalProperties: false }),
    response: V1Data(V1TicketDetail),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const detail = await withCtx(deps, request, (ctx) => replyToTicket(ctx, request.params.ticket_id, request.body.message));
      return v1ok(v1TicketDetail(detail), 'Reply added');
    },
  });
}
