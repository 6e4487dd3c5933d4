import { Type } from '@sinclair/typebox';
import { PRIORITIES, type Priority, SUBJECT_MAX } from '../../../core/tickets/rules.ts';
import { createTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { MessageField, V1TicketDetail } from './schemas.ts';
import { v1TicketDetail } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/tickets', area: 'tickets', operationId: 'createTicket', tag: 'Support',
    summary: 'Open a ticket',
    description: 'Opens a ticket (`open`) with its first message; answers with the ticket and its thread. `department_id`, when given, '
      + 'must be an active department (GET /departments); `priority` defaults to `medium`.',
    body: Type.Object({
      subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX, description: `At least one letter; at most ${SUBJECT_MAX} characters.`, examples: ['Server web-1 does not boot'] }),
      message: MessageField,
      department_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, examples: [1] })),
      priority: Type.Optional(Type.String({ enum: [...PRIORITIES], examples: ['high'] })),
    }, { additionalProperties: false }),
    response: V1Data(V1TicketDetail),
    handler: async (request) => {
      const b = request.body;
      const detail = await withCtx(deps, request, (ctx) => createTicket(ctx, {
        subject: b.subject, message: b.message,
        ...(b.department_id !== undefined ? { department_id: b.department_id } : {}),
        ...(b.priority !== undefined ? { priority: b.priority as Priority } : {}),
      }));
      return v1ok(v1TicketDetail(detail), 'Ticket created');
    },
  });
}
