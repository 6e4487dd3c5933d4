// Support tickets, the customer's side: open one (to an active department, or none), list and read
// your own (newest first; internal notes never included), reply, close. Ticket numbers are random.
import { randomInt } from 'node:crypto';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { type TicketRow, insertTicket, insertTicketMessage, listTicketsPage } from '../../db/queries/tickets.ts';
import type { Ticket } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { DEFAULT_PRIORITY, type NewTicketInput, type TicketStatus, messageProblem, newTicketProblems, stored } from './rules.ts';
import { type TicketDetail, act, lockLiveTicket, ticketDetail } from './thread.ts';

/** What a customer-side call needs of its context. */
export type TicketScope = Pick<Ctx, 'db' | 'accountId' | 'now'>;

/**
 * A fresh ticket number: 6 random digits while they are plentiful; after a few numbers already
 * taken, one digit more (up to 12), so a crowded length never loops for long.
 */
async function insertNumbered(trx: Db, row: Omit<Parameters<typeof insertTicket>[1], 'id'>): Promise<Ticket> {
  for (let attempt = 0; attempt < 21; attempt++) {
    const digits = 6 + Math.floor(attempt / 3);
    const id = String(randomInt(10 ** (digits - 1), 10 ** digits));
    const ticket = await insertTicket(trx, { ...row, id });
    if (ticket) return ticket;
  }
  throw new Error('no free ticket number after 21 draws');
}

export async function createTicket(s: TicketScope, input: NewTicketInput): Promise<TicketDetail> {
  const errors = newTicketProblems(input);
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return inTransaction(s.db, async (trx) => {
    if (input.department_id !== undefined) {
      const department = await findCatalogRow(trx, 'departments', input.department_id);
      if (!department?.active) throw invalid('department_id', `no active department ${input.department_id} (see GET /departments)`);
    }
    const ticket = await insertNumbered(trx, {
      account_id: s.accountId,
      subject: stored(input.subject),
      department_id: input.department_id ?? null,
      priority: input.priority ?? DEFAULT_PRIORITY,
      created_at: s.now,
      updated_at: s.now,
    });
    await insertTicketMessage(trx, { ticket_id: ticket.id, author: 'customer', internal: false, body: stored(input.message), created_at: s.now });
    await recordEvent(trx, 'ticket.opened', s.accountId, ticket.id);
    return ticketDetail(trx, ticket.id, { accountId: s.accountId, withNotes: false });
  });
}

export async function listTickets(s: Pick<Ctx, 'db' | 'accountId'>, status: TicketStatus | undefined, page: PageRequest): Promise<Paged<TicketRow>> {
  const { rows, total } = await listTicketsPage(s.db, { accountId: s.accountId, status }, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export function getTicket(s: Pick<Ctx, 'db' | 'accountId'>, id: string): Promise<TicketDetail> {
  return ticketDetail(s.db, id, { accountId: s.accountId, withNotes: false });
}

/** The customer's reply: the ticket becomes `customer_reply` (a closed one is 409). */
export async function replyToTicket(s: TicketScope, id: string, message: string): Promise<TicketDetail> {
  const problem = messageProblem(message);
  if (problem) throw invalid('message', problem);
  return inTransaction(s.db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id, s.accountId);
    await act(trx, ticket, { kind: 'customer_reply' }, { author: 'customer', internal: false, body: stored(message) }, s.now);
    return ticketDetail(trx, id, { accountId: s.accountId, withNotes: false });
  });
}

export async function closeTicket(s: TicketScope, id: string): Promise<TicketDetail> {
  return inTransaction(s.db, async (trx) => {
    const ticket = await lockLiveTicket(trx, id, s.accountId);
    await act(trx, ticket, { kind: 'customer_close' }, null, s.now);
    return ticketDetail(trx, id, { accountId: s.accountId, withNotes: false });
  });
}
