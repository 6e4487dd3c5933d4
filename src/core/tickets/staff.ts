// Support tickets, the staff's side (admin API and `hostcloud admin tickets`): every account's
// tickets with filters, the thread with internal notes, replies (the ticket becomes `answered` and
// the customer is notified through the outbox, in the same transaction), notes, status, priority
// and department changes, and soft deletes.
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { type TicketFilter, type TicketRow, listTicketsPage, updateTicket } from '../../db/queries/tickets.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid } from '../errors.ts';
import { queueNotification } from '../notifications/queue.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type Priority, type StaffSettable, staffTextProblem, stored } from './rules.ts';
import { type TicketDetail, act, lockLiveTicket, ticketDetail } from './thread.ts';

export const TICKET_ANSWERED = 'ticket.answered';

export async function listAllTickets(db: Db, filter: TicketFilter, page: PageRequest): Promise<Paged<TicketRow>> {
  const { rows, total } = await listTicketsPage(db, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export function getTicketForStaff(db: Db, id: string): Promise<TicketDetail> {
  return ticketDetail(db, id, { withNotes: true });
}

function checkText(text: string): void {
  const problem = staffTextProblem(text);
  if (problem) throw invalid('message', problem);
}

export async function staffReply(db: Db, id: string, message: string, now: Date): Promise<TicketDetail> {
  checkText(message);
  return inTransaction(db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id);
    await act(trx, ticket, { kind: 'staff_reply' }, { author: 'staff', internal: false, body: stored(message) }, now);
    await queueNotification(trx, {
      accountId: ticket.account_id,
      kind: TICKET_ANSWERED,
      subject: `Ticket #${ticket.id} answered: ${ticket.subject}`,
      body: `Support answered your ticket #${ticket.id} ("${ticket.subject}"):\n\n${stored(message)}\n\n`
        + `To answer, reply to ticket #${ticket.id}; once your problem is solved, you can close the ticket. `
        + `(In the API reference these are "Reply to a ticket" and "Close a ticket".)\n`,
    });
    return ticketDetail(trx, id, { withNotes: true });
  });
}

/** An internal note: visible to staff only, and it changes no state (closed tickets take notes too). */
export async function addNote(db: Db, id: string, message: string, now: Date): Promise<TicketDetail> {
  checkText(message);
  return inTransaction(db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id);
    await act(trx, ticket, { kind: 'staff_note' }, { author: 'staff', internal: true, body: stored(message) }, now);
    return ticketDetail(trx, id, { withNotes: true });
  });
}

export interface StaffChange {
  status?: StaffSettable;
  priority?: Priority;
  /** null removes the department. */
  department_id?: number | null;
}

export async function changeTicket(db: Db, id: string, change: StaffChange, now: Date): Promise<TicketDetail> {
  return inTransaction(db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id);
    if (change.department_id !== undefined && change.department_id !== null) {
      const department = await findCatalogRow(trx, 'departments', change.department_id);
      if (!department?.active) throw invalid('department_id', `no active department ${change.department_id}`);
    }
    if (change.status !== undefined) await act(trx, ticket, { kind: 'staff_set', status: change.status }, null, now);
    if (change.priority !== undefined || change.department_id !== undefined) {
      await updateTicket(trx, id, { priority: change.priority, department_id: change.department_id }, now);
    }
    return ticketDetail(trx, id, { withNotes: true });
  });
}

/** Soft delete: the ticket leaves every list and answers 404 to the customer and to staff; its thread is kept. */
export async function deleteTicket(db: Db, id: string, now: Date): Promise<TicketRow> {
  return inTransaction(db, async (trx) => {
    await lockLiveTicket(trx, id);
    const before = await ticketDetail(trx, id, { withNotes: false });
    await updateTicket(trx, id, { deleted_at: now }, now);
    return before.ticket;
  });
}
