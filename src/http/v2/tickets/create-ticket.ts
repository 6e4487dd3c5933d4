import { Type } from '@sinclair/typebox';
import { MESSAGE_MAX, PRIORITIES, SUBJECT_MAX } from '../../../core/tickets/rules.ts';
import { createTicket } from '../../../core/tickets/service.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, IntId, StringEnum, errorResponses } from '../../schemas.ts';
import { TicketDetailSchema, ticketDetailView } from './presenters.ts';

export const MessageField = Type.String({
  minLength: 1,
  maxLength: MESSAGE_MAX,
  description: `At least 25 characters of which at least 15 letters (any script; digits, punctuation and spaces are not letters), at most ${MESSAGE_MAX}.`,
  examples: ['The console shows "no bootable device" since this morning; I reinstalled Ubuntu 24.04 at 08:10.'],
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/tickets', {
    config: { area: 'tickets' },
    schema: {
      operationId: 'createTicket',
      tags: ['Support tickets'],
      summary: 'Open a ticket',
      description: 'Opens a ticket (`open`) with its first message and answers 201 with it. It gets a ticket number as its `id`. '
        + '`department_id` is optional; when given it must be an active department (GET /departments). `priority` defaults to `medium`.',
      body: Type.Object({
        subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX, description: `At least one letter; at most ${SUBJECT_MAX} characters.`, examples: ['Server web-1 does not boot'] }),
        message: MessageField,
        department_id: Type.Optional({ ...IntId, description: 'An active department (GET /departments).', examples: [1] }),
        priority: Type.Optional(StringEnum(PRIORITIES, { description: 'Default `medium`.' })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(TicketDetailSchema), ...errorResponses() },
    },
  }, async (request, reply) => {
    const detail = await withCtx(deps, request, (ctx) => createTicket(ctx, request.body));
    const view = ticketDetailView(detail);
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'v2', 'tickets', view.id);
    return reply.send(ok(request, view));
  });
}
