// Support tickets as staff see them (/admin/v1/tickets and `hostcloud admin tickets`): every
// account's tickets, the thread with internal notes, replies (the ticket becomes `answered` and the
// customer is notified), notes, status/priority/department changes, soft deletes.
import { Type } from '@sinclair/typebox';
import { PRIORITIES, STAFF_SETTABLE, TICKET_STATUSES } from '../../core/tickets/rules.ts';
import { addNote, changeTicket, deleteTicket, getTicketForStaff, listAllTickets, staffReply } from '../../core/tickets/staff.ts';
import type { TicketDetail } from '../../core/tickets/thread.ts';
import type { TicketRow } from '../../db/queries/tickets.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, ListEnvelope, PageQuery, StringEnum, errorResponses, ref } from '../schemas.ts';
import { TicketMessageSchema, TicketParams, TicketSchema, ticketMessageView, ticketView } from '../v2/tickets/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'tickets' as const };
const tags = ['Admin'];

const StaffTicket = Type.Intersect([ref(TicketSchema), Type.Object({ account_id: Type.String() })], { title: 'StaffTicket' });
const StaffTicketDetail = Type.Intersect([ref(TicketSchema), Type.Object({
  account_id: Type.String(),
  messages: Type.Array(Type.Intersect([ref(TicketMessageSchema), Type.Object({
    internal: Type.Boolean({ description: 'An internal note: staff only, never shown to the customer.' }),
  })]), { description: 'The thread with internal notes, oldest first.' }),
})], { title: 'StaffTicketDetail' });

const staffTicketView = (t: TicketRow) => ({ ...ticketView(t), account_id: t.account_id });
const staffDetailView = (d: TicketDetail) => ({
  ...staffTicketView(d.ticket),
  messages: d.messages.map((m) => ({ ...ticketMessageView(m), internal: m.internal })),
});

const Text = Type.String({ minLength: 1, maxLength: 10_000, description: 'Not blank; at most 10,000 characters.' });

export function register(app: TypedApp, { db, now, config }: RouteDeps) {
  app.get('/tickets', {
    config: admin,
    schema: {
      tags,
      operationId: 'listAllTickets',
      summary: 'Every account\'s tickets, newest first, with filters',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(TICKET_STATUSES)),
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        department_id: Type.Optional(IntId),
        priority: Type.Optional(StringEnum(PRIORITIES)),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(StaffTicket), ...errorResponses() },
    },
  }, async (request) => {
    const { status, account_id: accountId, department_id: departmentId, priority, ...p } = request.query;
    return page(request, await listAllTickets(db, { status, accountId, departmentId, priority }, pageOf(p)), staffTicketView);
  });

  app.get('/tickets/:id', {
    config: admin,
    schema: {
      tags, operationId: 'getStaffTicket', summary: 'A ticket with its thread and internal notes', params: TicketParams,
      response: { 200: Envelope(StaffTicketDetail), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, staffDetailView(await getTicketForStaff(db, request.params.id))));

  app.post('/tickets/:id/replies', {
    config: admin,
    schema: {
      tags,
      operationId: 'createStaffReply',
      summary: 'Answer a ticket: it becomes `answered` and the customer is notified',
      params: TicketParams,
      body: Type.Object({ message: Text }, { additionalProperties: false }),
      response: { 201: Envelope(StaffTicketDetail), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const detail = await staffReply(db, request.params.id, request.body.message, now());
    reply.code(201);
    // A reply has no URL of its own: the thread that shows it.
    locate(reply, config.publicUrl, 'admin', 'v1', 'tickets', request.params.id);
    return reply.send(ok(request, staffDetailView(detail)));
  });

  app.post('/tickets/:id/notes', {
    config: admin,
    schema: {
      tags,
      operationId: 'createTicketNote',
      summary: 'Add an internal note (never shown to the customer; no state change)',
      params: TicketParams,
      body: Type.Object({ message: Text }, { additionalProperties: false }),
      response: { 201: Envelope(StaffTicketDetail), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request, reply) => {
    const detail = await addNote(db, request.params.id, request.body.message, now());
    reply.code(201);
    locate(reply, config.publicUrl, 'admin', 'v1', 'tickets', request.params.id);
    return reply.send(ok(request, staffDetailView(detail)));
  });

  app.patch('/tickets/:id', {
    config: admin,
    schema: {
      tags,
      operationId: 'updateStaffTicket',
      summary: 'Set status (open, in_progress, pending, closed), priority or department',
      description: '`answered` and `customer_reply` are set by replies only. Setting `open`, `in_progress` or `pending` on a closed ticket reopens it; '
        + 'closing a closed ticket is 409. `department_id: null` removes the department.',
      params: TicketParams,
      body: Type.Object({
        status: Type.Optional(StringEnum(STAFF_SETTABLE)),
        priority: Type.Optional(StringEnum(PRIORITIES)),
        department_id: Type.Optional(Type.Union([IntId, Type.Null()])),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(StaffTicketDetail), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, staffDetailView(await changeTicket(db, request.params.id, request.body, now()))));

  app.delete('/tickets/:id', {
    config: admin,
    schema: {
      tags, operationId: 'deleteTicket', summary: 'Delete a ticket (soft: it leaves every list, its thread is kept)', params: TicketParams,
      response: { 200: Envelope(StaffTicket), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, staffTicketView(await deleteTicket(db, request.params.id, now()))));
}
