// Support tickets and their threads. A deleted ticket (deleted_at) is invisible to every query
// here: lists leave it out and lookups do not find it.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { StaffRole, Ticket, TicketMessage, TicketPriority, TicketsTable, TicketStatus } from '../schema.ts';

/** A ticket with its department's name and its assignee's (null without either). */
export interface TicketRow extends Ticket {
  department_name: string | null;
  assignee_name: string | null;
}

/** A message with the name of the member who wrote it (null: the customer, or no member). */
export interface TicketMessageRow extends TicketMessage {
  staff_name: string | null;
}

export type NewTicket = Required<Pick<Insertable<TicketsTable>, 'id' | 'account_id' | 'subject' | 'department_id' | 'priority' | 'created_at' | 'updated_at'>>;

/** The ticket, or undefined when its number is taken (the caller draws another). */
export function insertTicket(db: Db, row: NewTicket): Promise<Ticket | undefined> {
  return db.insertInto('tickets').values(row).onConflict((oc) => oc.column('id').doNothing()).returningAll().executeTakeFirst();
}

export async function insertTicketMessage(db: Db, row: { ticket_id: string; author: 'customer' | 'staff'; internal: boolean; body: string; created_at: Date; staff_id?: string | null }): Promise<TicketMessage> {
  return db.insertInto('ticket_messages').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * The ticket row found by its primary key alone, in a subquery the planner keeps apart (OFFSET 0):
 * as with servers (queries/servers.ts), given the id with the account and `deleted_at IS NULL`,
 * PostgreSQL may pick the account's partial list index and walk the whole account.
 */
const ticketById = (db: Db, id: string) => db.selectFrom('tickets').selectAll().where('id', '=', id).offset(0);

function withDepartment(db: Db, id?: string) {
  return (id === undefined ? db.selectFrom('tickets as t') : db.selectFrom(ticketById(db, id).as('t')))
    .leftJoin('departments as d', 'd.id', 't.department_id')
    .leftJoin('staff_members as sm', 'sm.id', 't.assignee_id')
    .selectAll('t')
    .select(['d.name as department_name', 'sm.name as assignee_name'])
    .where('t.deleted_at', 'is', null);
}

/** A live ticket; with `accountId`, only that account's (another account's number is not found). */
export function findTicket(db: Db, id: string, accountId?: string): Promise<TicketRow | undefined> {
  let q = withDepartment(db, id);
  if (accountId !== undefined) q = q.where('t.account_id', '=', accountId);
  return q.executeTakeFirst();
}

/** The live ticket row, locked for the rest of the transaction: two replies or a reply and a close serialise on it. */
export function lockTicket(db: Db, id: string, accountId?: string): Promise<Ticket | undefined> {
  let q = db.selectFrom(ticketById(db, id).as('tickets')).selectAll().where('deleted_at', 'is', null);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.forUpdate().executeTakeFirst();
}

export interface TicketPatch {
  status?: TicketStatus;
  priority?: TicketPriority;
  department_id?: number | null;
  closed_at?: Date | null;
  deleted_at?: Date;
  assignee_id?: string | null;
}

export async function updateTicket(db: Db, id: string, patch: TicketPatch, at: Date): Promise<void> {
  await db.updateTable('tickets').set({ ...patch, updated_at: at }).where('id', '=', id).execute();
}

export interface TicketFilter {
  accountId?: string;
  status?: TicketStatus;
  departmentId?: number;
  priority?: TicketPriority;
  /** A member's id, or null: nobody's tickets. */
  assigneeId?: string | null;
  /** A ticket number, or words of the subject (case-insensitive). */
  search?: string;
}

/** One page, newest first, with the total. */
export async function listTicketsPage(db: Db, f: TicketFilter, limit: number, offset: number): Promise<{ rows: TicketRow[]; total: number }> {
  let q = withDepartment(db);
  if (f.accountId !== undefined) q = q.where('t.account_id', '=', f.accountId);
  if (f.status !== undefined) q = q.where('t.status', '=', f.status);
  if (f.departmentId !== undefined) q = q.where('t.department_id', '=', f.departmentId);
  if (f.priority !== undefined) q = q.where('t.priority', '=', f.priority);
  if (f.assigneeId === null) q = q.where('t.assignee_id', 'is', null);
  else if (f.assigneeId !== undefined) q = q.where('t.assignee_id', '=', f.assigneeId);
  if (f.search !== undefined) {
    const like = `%${f.search.replace(/[\\%_]/g, '\\$&')}%`;
    const search = f.search;
    q = q.where((eb) => eb.or([eb('t.id', '=', search), eb('t.subject', 'ilike', like)]));
  }
  const [rows, count] = await Promise.all([
    q.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(limit).offset(offset).execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** The thread in order; internal notes only when asked for (staff). */
export function listTicketMessages(db: Db, ticketId: string, withNotes: boolean): Promise<TicketMessageRow[]> {
  let q = db.selectFrom('ticket_messages as m').leftJoin('staff_members as sm', 'sm.id', 'm.staff_id')
    .selectAll('m').select('sm.name as staff_name').where('m.ticket_id', '=', ticketId);
  if (!withNotes) q = q.where('m.internal', '=', false);
  return q.orderBy('m.id').execute();
}

/** The live tickets among `ids`, locked in number order (two bulk closes never wait on each other in a cycle). */
export function lockTickets(db: Db, ids: string[]): Promise<Ticket[]> {
  return db.selectFrom('tickets').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).orderBy('id').forUpdate().execute();
}

/** Active staff members of these roles, by name: who a ticket may be assigned to. */
export function listActiveStaffOfRoles(db: Db, roles: StaffRole[]): Promise<{ id: string; name: string; role: StaffRole }[]> {
  return db.selectFrom('staff_members').select(['id', 'name', 'role']).where('status', '=', 'active').where('role', 'in', roles).orderBy('name').orderBy('id').execute();
}
