// Support tickets as staff see them (/admin/v1/tickets and `hostcloud admin tickets`): every
// account's tickets, the thread with internal notes, replies (the ticket becomes `answered` and the
// customer is notified), notes, status/priority/department changes, assignment, bulk closes, soft
// deletes. The assignee and who wrote each staff message are staff's views only: the customer's
// presenters (v2, v1, events) pick their own fields and never see them.
import { Type } from '@sinclair/typebox';
import { PRIORITIES, STAFF_SETTABLE, TICKET_STATUSES } from '../../core/tickets/rules.ts';
import {
  addNote, assigneeFilter, changeTicket, closeTickets, deleteTicket, getTicketForStaff, listAllTickets, listAssignees, staffReply,
} from '../../core/tickets/staff.ts';
import type { TicketDetail } from '../../core/tickets/thread.ts';
import type { TicketRow } from '../../db/queries/tickets.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import { principalOf } from './principal.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, ListEnvelope, PageQuery, StringEnum, errorResponses, ref } from '../schemas.ts';
import { TicketMessageSchema, TicketParams, TicketSchema, ticketMessageView, ticketView } from '../v2/tickets/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'tickets' as const };
const tags = ['Admin'];

const Member = Type.Object({ id: Type.String(), name: Type.String() });
const StaffFields = {
  account_id: Type.String(),
  assignee: Type.Union([Member, Type.Null()], { description: 'The staff member working on the ticket; null: nobody yet.' }),
};
const StaffTicket = Type.Intersect([ref(TicketSchema), Type.Object(StaffFields)], { title: 'StaffTicket' });
const StaffTicketDetail = Type.Intersect([ref(TicketSchema), Type.Object({
  ...StaffFields,
  messages: Type.Array(Type.Intersect([ref(TicketMessageSchema), Type.Object({
    internal: Type.Boolean({ description: 'An internal note: staff only, never shown to the customer.' }),
    staff: Type.Union([Member, Type.Null()], { description: 'The member who wrote a staff message; null for the customer\'s, ADMIN_TOKEN\'s and older ones.' }),
  })]), { description: 'The thread with internal notes, oldest first.' }),
})], { title: 'StaffTicketDetail' });

const member = (id: string | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });
const staffTicketView = (t: TicketRow) => ({ ...ticketView(t), account_id: t.account_id, assignee: member(t.assignee_id, t.assignee_name) });
const staffDetailView = (d: TicketDetail) => ({
  ...staffTicketView(d.ticket),
  messages: d.messages.map((m) => ({ ...ticketMessageView(m), internal: m.internal, staff: member(m.staff_id, m.staff_name) })),
});

const BulkCloseResult = Type.Object({
  closed: Type.Array(Type.String(), { description: 'Closed by this request.' }),
  already_closed: Type.Array(Type.String()),
  not_found: Type.Array(Type.String(), { description: 'Unknown or deleted ticket numbers.' }),
});

const Text = Type.String({ minLength: 1, maxLength: 10_000, description: 'Not blank; at most 10,000 characters.' });

export function register(app: TypedApp, { db, now, config }: RouteDeps) {
  app.get('/tickets', {
    config: admin,
    schema: {
      tags,
      operationId: 'listAllTickets',
      summary: 'Every account\'s tickets, newest first, with filters',
      description: 'Filters combine (a department\'s queue: `department_id` + `status` + `assignee`). `assignee`: `me` (the calling member: '
        + 'ADMIN_TOKEN is no member, so `me` is 422 for it), `none` (nobody\'s) or a member\'s id. `q`: a ticket number, or part of the subject.',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(TICKET_STATUSES)),
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        department_id: Type.Optional(IntId),
        priority: Type.Optional(StringEnum(PRIORITIES)),
        assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: '`me`, `none` or a staff member\'s id' })),
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(StaffTicket), ...errorResponses() },
    },
  }, async (request) => {
    const { status, account_id: accountId, department_id: departmentId, priority, assignee, q, ...p } = request.query;
    const assigneeId = assignee === undefined ? undefined : await assigneeFilter(db, principalOf(request), assignee);
    const search = q?.trim() || undefined;
    return page(request, await listAllTickets(db, { status, accountId, departmentId, priority, assigneeId, search }, pageOf(p)), staffTicketView);
  });

  app.get('/ticket-assignees', {
    config: admin,
    schema: {
      tags,
      operationId: 'listTicketAssignees',
      summary: 'Who a ticket may be assigned to: active members of a role that answers tickets, by name',
      response: { 200: Envelope(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: Type.String() }))), ...errorResponses() },
    },
  }, async (request) => ok(request, await listAssignees(db)));

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
    const detail = await staffReply(db, principalOf(request), request.params.id, request.body.message, now());
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
    const detail = await addNote(db, principalOf(request), request.params.id, request.body.message, now());
    reply.code(201);
    locate(reply, config.publicUrl, 'admin', 'v1', 'tickets', request.params.id);
    return reply.send(ok(request, staffDetailView(detail)));
  });

  app.patch('/tickets/:id', {
    config: admin,
    schema: {
      tags,
      operationId: 'updateStaffTicket',
      summary: 'Set status (open, in_progress, pending, closed), priority, department or assignee',
      description: '`answered` and `customer_reply` are set by replies only. Setting `open`, `in_progress` or `pending` on a closed ticket reopens it; '
        + 'closing a closed ticket is 409. `department_id: null` removes the department. `assignee_id`: an active staff member\'s id '
        + '(unknown or disabled: 422), null unassigns.',
      params: TicketParams,
      body: Type.Object({
        status: Type.Optional(StringEnum(STAFF_SETTABLE)),
        priority: Type.Optional(StringEnum(PRIORITIES)),
        department_id: Type.Optional(Type.Union([IntId, Type.Null()])),
        assignee_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(StaffTicketDetail), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, staffDetailView(await changeTicket(db, request.params.id, request.body, now()))));

  app.post('/tickets/close', {
    config: admin,
    schema: {
      tags,
      operationId: 'closeTickets',
      summary: 'Close several tickets at once',
      description: 'One transaction. Each ticket closed is a `ticket.closed` event, as a close by PATCH; a ticket already closed, '
        + 'unknown or deleted is reported rather than refused (the queue the ids were chosen from may have moved on).',
      body: Type.Object({
        ids: Type.Array(TicketParams.properties.id, { minItems: 1, maxItems: 100, uniqueItems: true }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(BulkCloseResult), ...errorResponses() },
    },
  }, async (request) => ok(request, await closeTickets(db, request.body.ids, now())));

  app.delete('/tickets/:id', {
    config: admin,
    schema: {
      tags, operationId: 'deleteTicket', summary: 'Delete a ticket (soft: it leaves every list, its thread is kept)', params: TicketParams,
      response: { 200: Envelope(StaffTicket), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, staffTicketView(await deleteTicket(db, request.params.id, now()))));
}
