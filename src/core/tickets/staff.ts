// Support tickets, the staff's side (admin API and `hostcloud admin tickets`): every account's
// tickets with filters, the thread with internal notes, replies (the ticket becomes `answered` and
// the customer is notified through the outbox, in the same transaction), notes, status, priority
// and department changes, assignment to a member, bulk closes, and soft deletes.
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { findStaffMember } from '../../db/queries/staff.ts';
import { type TicketFilter, type TicketRow, listActiveStaffOfRoles, listTicketsPage, lockTickets, updateTicket } from '../../db/queries/tickets.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid } from '../errors.ts';
import type { StaffPrincipal } from '../staff/principal.ts';
import { STAFF_ROLES, mayDo } from '../staff/roles.ts';
import { queueNotification } from '../notifications/queue.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type Priority, type StaffSettable, staffTextProblem, stored } from './rules.ts';
import { type TicketDetail, act, lockLiveTicket, ticketDetail } from './thread.ts';

export const TICKET_ANSWERED = 'ticket.answered';

/** Who staff acting on a ticket are: the member, or null for ADMIN_TOKEN (no member). */
export type StaffActor = Pick<StaffPrincipal, 'id'>;

/**
 * The assignee filter of the queue: `me` (the caller; ADMIN_TOKEN is no member, so that is 422
 * rather than a silent "nobody's"), `none` (nobody's), or a member's id (422 if there is none).
 */
export async function assigneeFilter(db: Db, actor: StaffActor, value: string): Promise<string | null> {
  if (value === 'none') return null;
  if (value === 'me') {
    if (actor.id === null) throw invalid('assignee', 'ADMIN_TOKEN is no staff member, so it has no tickets of its own: use a staff token or a console session, or assignee=<staff id>');
    return actor.id;
  }
  if (!(await findStaffMember(db, value))) throw invalid('assignee', `no staff member ${value} (me, none or a member's id)`);
  return value;
}

/** The roles that answer tickets (tickets:write): only their members take a ticket. */
const ANSWERING_ROLES = STAFF_ROLES.filter((r) => mayDo(r, 'tickets:write'));

/** Who a ticket may be assigned to: active members of a role that answers tickets, by name. */
export function listAssignees(db: Db) {
  return listActiveStaffOfRoles(db, [...ANSWERING_ROLES]);
}

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

export async function staffReply(db: Db, actor: StaffActor, id: string, message: string, now: Date): Promise<TicketDetail> {
  checkText(message);
  return inTransaction(db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id);
    await act(trx, ticket, { kind: 'staff_reply' }, { author: 'staff', internal: false, body: stored(message), staff_id: actor.id }, now);
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
export async function addNote(db: Db, actor: StaffActor, id: string, message: string, now: Date): Promise<TicketDetail> {
  checkText(message);
  return inTransaction(db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id);
    await act(trx, ticket, { kind: 'staff_note' }, { author: 'staff', internal: true, body: stored(message), staff_id: actor.id }, now);
    return ticketDetail(trx, id, { withNotes: true });
  });
}

export interface StaffChange {
  status?: StaffSettable;
  priority?: Priority;
  /** null removes the department. */
  department_id?: number | null;
  /** A staff member's id; null unassigns. */
  assignee_id?: string | null;
}

export async function changeTicket(db: Db, id: string, change: StaffChange, now: Date): Promise<TicketDetail> {
  return inTransaction(db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id);
    if (change.department_id !== undefined && change.department_id !== null) {
      const department = await findCatalogRow(trx, 'departments', change.department_id);
      if (!department?.active) throw invalid('department_id', `no active department ${change.department_id}`);
    }
    if (change.assignee_id !== undefined && change.assignee_id !== null) {
      const member = await findStaffMember(trx, change.assignee_id);
      if (!member) throw invalid('assignee_id', `no staff member ${change.assignee_id} (see GET /admin/v1/staff)`);
      if (member.status !== 'active') throw invalid('assignee_id', `staff member ${change.assignee_id} is disabled`);
      if (!mayDo(member.role, 'tickets:write')) throw invalid('assignee_id', `staff member ${change.assignee_id} is ${member.role}, a role that does not answer tickets`);
    }
    if (change.status !== undefined) await act(trx, ticket, { kind: 'staff_set', status: change.status }, null, now);
    if (change.priority !== undefined || change.department_id !== undefined || change.assignee_id !== undefined) {
      await updateTicket(trx, id, { priority: change.priority, department_id: change.department_id, assignee_id: change.assignee_id }, now);
    }
    return ticketDetail(trx, id, { withNotes: true });
  });
}

export interface BulkClose {
  closed: string[];
  already_closed: string[];
  /** Unknown or deleted numbers. */
  not_found: string[];
}

/**
 * Closes each live ticket of `ids` that is not closed yet, in one transaction (each close is the
 * customer's `ticket.closed` event, as a close by PATCH). A closed or unknown number is reported,
 * not refused: the queue a bulk close was chosen from may have moved on meanwhile.
 */
export async function closeTickets(db: Db, ids: string[], now: Date): Promise<BulkClose> {
  return inTransaction(db, async (trx) => {
    const live = await lockTickets(trx, ids);
    const found = new Map(live.map((t) => [t.id, t]));
    const result: BulkClose = { closed: [], already_closed: [], not_found: [] };
    for (const id of ids) {
      const ticket = found.get(id);
      if (!ticket) result.not_found.push(id);
      else if (ticket.status === 'closed') result.already_closed.push(id);
      else {
        await act(trx, ticket, { kind: 'staff_set', status: 'closed' }, null, now);
        result.closed.push(id);
      }
    }
    return result;
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
