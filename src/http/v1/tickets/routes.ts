// The v1 tickets routes, in the order of the v1 document (src/http/v1/index.ts lists each family once).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as listDepartments from './list-departments.ts';
import * as listTickets from './list-tickets.ts';
import * as createTicket from './create-ticket.ts';
import * as getTicket from './get-ticket.ts';
import * as replyTicket from './reply-ticket.ts';
import * as closeTicket from './close-ticket.ts';

export const TICKETS_ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listDepartments, listTickets, createTicket, getTicket, replyTicket, closeTicket,
];
