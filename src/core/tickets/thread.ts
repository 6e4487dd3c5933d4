// What the customer's side and the staff's side of tickets share: finding a ticket with its
// thread, and taking one action on it under the ticket's row lock — the state machine's verdict,
// the message written, the new state stored, together.
import { type TicketMessageRow, type TicketRow, findTicket, insertTicketMessage, listTicketMessages, lockTicket, updateTicket } from '../../db/queries/tickets.ts';
import type { Ticket } from '../../db/schema.ts';
import { ApiError } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import type { Db } from '../types.ts';
import { type TicketAction, type TicketStatus, transition } from './rules.ts';

export interface TicketDetail {
  ticket: TicketRow;
  /** Oldest first; internal notes only in the staff's view. */
  messages: TicketMessageRow[];
}

export const ticketNotFound = (id: string) => new ApiError('RESOURCE_NOT_FOUND', `Ticket ${id} not found`);

/** The live ticket and its thread; `accountId` limits it to that account's tickets. */
export async function ticketDetail(db: Db, id: string, opts: { accountId?: string; withNotes: boolean }): Promise<TicketDetail> {
  const ticket = await findTicket(db, id, opts.accountId);
  if (!ticket) throw ticketNotFound(id);
  return { ticket, messages: await listTicketMessages(db, id, opts.withNotes) };
}

export async function lockLiveTicket(trx: Db, id: string, accountId?: string): Promise<Ticket> {
  const ticket = await lockTicket(trx, id, accountId);
  if (!ticket) throw ticketNotFound(id);
  return ticket;
}

export interface Message {
  author: 'customer' | 'staff';
  internal: boolean;
  body: string;
  /** The member who wrote a staff message (null: ADMIN_TOKEN). */
  staff_id?: string | null;
}

/** Applies `action` to a locked ticket: 409 when the state machine refuses it, else the message and the new state. */
export async function act(trx: Db, ticket: Ticket, action: TicketAction, message: Message | null, now: Date): Promise<TicketStatus> {
  const verdict = transition(ticket.status, action);
  if (!verdict.ok) throw new ApiError('STATE_CONFLICT', `Ticket ${ticket.id}: ${verdict.reason}`);
  if (message) await insertTicketMessage(trx, { ticket_id: ticket.id, ...message, created_at: now });
  const closedAt = verdict.next === 'closed' ? (ticket.closed_at ?? now) : null;
  // A note changes nothing but the ticket's last activity.
  await updateTicket(trx, ticket.id, { status: verdict.next, closed_at: closedAt }, now);
  // Every answer from support is news to the customer; a close only once.
  if (action.kind === 'staff_reply') await recordEvent(trx, 'ticket.answered', ticket.account_id, ticket.id);
  else if (verdict.next === 'closed' && ticket.status !== 'closed') await recordEvent(trx, 'ticket.closed', ticket.account_id, ticket.id);
  return verdict.next;
}
