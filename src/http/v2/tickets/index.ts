// The tickets routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as closeTicket from './close-ticket.ts';
import * as createTicket from './create-ticket.ts';
import * as createTicketReply from './create-ticket-reply.ts';
import * as getTicket from './get-ticket.ts';
import * as listTickets from './list-tickets.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listTickets, getTicket, createTicket, createTicketReply, closeTicket,
];
