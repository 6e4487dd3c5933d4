// Tickets as v1 shapes them: the department by name in lists, the thread without priorities or dates of the ticket.
import type { TicketDetail } from '../../../core/tickets/thread.ts';
import { ts } from '../../../core/time.ts';
import type { TicketRow } from '../../../db/queries/tickets.ts';
import type { Department } from '../../../db/schema.ts';

export function v1TicketListItem(t: TicketRow) {
  return { id: t.id, subject: t.subject, status: t.status, department: t.department_id === null ? null : (t.department_name ?? '') };
}

export function v1TicketDetail(d: TicketDetail) {
  return {
    id: d.ticket.id,
    subject: d.ticket.subject,
    status: d.ticket.status,
    messages: d.messages.map((m) => ({ id: m.id, message: m.body, author: m.author, created_at: ts(m.created_at) })),
  };
}

export function v1Department(d: Department) {
  return { id: d.id, name: d.name, email: d.email };
}
