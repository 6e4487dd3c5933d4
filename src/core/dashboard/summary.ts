// The console's dashboard: what an operator looks at first. Money figures are in the answer only
// for a role that reads billing (support does not), so one route serves every role.
import {
  type NodeFillRow, type OpenTicketsRow, dashboardCounts, nodeFill, openTicketsByDepartment, refundedNet, settledPayments,
} from '../../db/queries/dashboard.ts';
import type { StaffRole } from '../../db/schema.ts';
import { mayDo } from '../staff/roles.ts';
import type { Db } from '../types.ts';

const DAY_MS = 24 * 3600 * 1000;

export interface Dashboard {
  at: Date;
  accounts: number;
  active_servers: number;
  failed_operations_24h: number;
  queue_depth: number;
  /** Null for a role without billing:read. */
  revenue_month: { net_cents: number; refunded_cents: number; since: Date } | null;
  payments_today: { count: number; gross_cents: number; since: Date } | null;
  nodes: NodeFillRow[];
  open_tickets: OpenTicketsRow[];
}

/** Month and day are UTC, as the ledger and the invoices count them. */
export async function dashboard(db: Db, role: StaffRole, now: Date): Promise<Dashboard> {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(now.getTime() + 1);
  const money = mayDo(role, 'billing:read');
  const [counts, nodes, tickets, month, refunded, today] = await Promise.all([
    dashboardCounts(db, new Date(now.getTime() - DAY_MS)),
    nodeFill(db),
    mayDo(role, 'tickets:read') ? openTicketsByDepartment(db) : Promise.resolve([]),
    money ? settledPayments(db, monthStart, end) : null,
    money ? refundedNet(db, monthStart, end) : 0,
    money ? settledPayments(db, dayStart, end) : null,
  ]);
  return {
    at: now,
    accounts: counts.accounts,
    active_servers: counts.active_servers,
    failed_operations_24h: counts.failed_operations,
    queue_depth: counts.queued_operations,
    revenue_month: month ? { net_cents: month.net_cents - refunded, refunded_cents: refunded, since: monthStart } : null,
    payments_today: today ? { count: today.count, gross_cents: today.gross_cents, since: dayStart } : null,
    nodes,
    open_tickets: tickets,
  };
}
