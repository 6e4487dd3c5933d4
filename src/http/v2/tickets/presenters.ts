// Ticket resources of v2 (and, with the account and internal notes, of the admin API).
import { Type } from '@sinclair/typebox';
import { PRIORITIES, TICKET_STATUSES } from '../../../core/tickets/rules.ts';
import type { TicketDetail } from '../../../core/tickets/thread.ts';
import { timestamp, ts } from '../../../core/time.ts';
import type { TicketRow } from '../../../db/queries/tickets.ts';
import type { TicketMessage } from '../../../db/schema.ts';
import { NullableTimestamp, StringEnum, Timestamp, component, ref } from '../../schemas.ts';

export const TicketParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 32, description: 'The ticket number.', examples: ['482913'] }),
});

const STATUS_TEXT = '`open` (new), `customer_reply` (you wrote last), `answered` (support wrote last), `in_progress` and `pending` '
  + '(set by support), `closed`.';

export const TicketSchema = component('Ticket', Type.Object({
  id: Type.String({ description: 'The ticket number.', examples: ['482913'] }),
  subject: Type.String({ examples: ['Server web-1 does not boot after the reinstall'] }),
  status: StringEnum(TICKET_STATUSES, { description: STATUS_TEXT }),
  priority: StringEnum(PRIORITIES),
  department: Type.Union([
    Type.Object({ id: Type.Integer({ examples: [1] }), name: Type.String({ examples: ['Technical Support'] }) }),
    Type.Null(),
  ], { description: 'Where the ticket is addressed; null when no department was chosen.' }),
  created_at: Timestamp,
  updated_at: { ...Timestamp, description: 'The last change: a message, a note by support, or a status change.' },
  closed_at: NullableTimestamp,
}, { description: 'A support ticket (without its thread).' }));

export const TicketMessageSchema = component('TicketMessage', Type.Object({
  id: Type.Integer({ examples: [9051] }),
  author: StringEnum(['customer', 'staff'] as const, { description: '`customer`: the account (or one of its sub-users); `staff`: support.' }),
  message: Type.String({ examples: ['The console shows "no bootable device" since this morning; I reinstalled Ubuntu 24.04 at 08:10.'] }),
  created_at: Timestamp,
}, { description: 'One message of a ticket\'s thread.' }));

export const TicketDetailSchema = component('TicketDetail', Type.Intersect([
  ref(TicketSchema),
  Type.Object({ messages: Type.Array(ref(TicketMessageSchema), { description: 'The thread, oldest first.' }) }),
], { description: 'A support ticket with its whole thread (support\'s internal notes are never included).' }));

export function ticketView(t: TicketRow) {
  return {
    id: t.id,
    subject: t.subject,
    status: t.status,
    priority: t.priority,
    department: t.department_id === null ? null : { id: t.department_id, name: t.department_name ?? '' },
    created_at: ts(t.created_at),
    updated_at: ts(t.updated_at),
    closed_at: timestamp(t.closed_at),
  };
}

export function ticketMessageView(m: TicketMessage) {
  return { id: m.id, author: m.author, message: m.body, created_at: ts(m.created_at) };
}

export function ticketDetailView(d: TicketDetail) {
  return { ...ticketView(d.ticket), messages: d.messages.map(ticketMessageView) };
}
