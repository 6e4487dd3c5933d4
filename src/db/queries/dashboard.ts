// The console's dashboard: the installation's figures at a glance, each one aggregate read.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';

export interface DashboardCounts {
  accounts: number;
  active_servers: number;
  failed_operations: number;
  queued_operations: number;
}

/** Accounts (not closed), active servers, operations failed since `failedSince`, operations queued. */
export async function dashboardCounts(db: Db, failedSince: Date): Promise<DashboardCounts> {
  const r = await sql<DashboardCounts>`SELECT
      (SELECT count(*)::int FROM accounts WHERE status <> 'closed') AS accounts,
      (SELECT count(*)::int FROM servers WHERE status = 'active' AND deleted_at IS NULL) AS active_servers,
      (SELECT count(*)::int FROM operations WHERE status = 'failed' AND finished_at >= ${failedSince}) AS failed_operations,
      (SELECT count(*)::int FROM operations WHERE status = 'queued') AS queued_operations`.execute(db);
  return r.rows[0]!;
}

export interface PaymentSums {
  count: number;
  net_cents: number;
  gross_cents: number;
}

/** Payments settled (paid) in [from, to). */
export async function settledPayments(db: Db, from: Date, to: Date): Promise<PaymentSums> {
  const r = await db.selectFrom('payments')
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<number>`coalesce(sum(net_cents), 0)::bigint`.as('net_cents'),
      sql<number>`coalesce(sum(gross_cents), 0)::bigint`.as('gross_cents'),
    ])
    .where('status', '=', 'paid').where('settled_at', '>=', from).where('settled_at', '<', to)
    .executeTakeFirstOrThrow();
  return { count: r.count, net_cents: Number(r.net_cents), gross_cents: Number(r.gross_cents) };
}

/** The net of refunds completed in [from, to). */
export async function refundedNet(db: Db, from: Date, to: Date): Promise<number> {
  const r = await db.selectFrom('payment_refunds')
    .select(sql<number>`coalesce(sum(net_cents), 0)::bigint`.as('net_cents'))
    .where('status', '=', 'completed').where('finished_at', '>=', from).where('finished_at', '<', to)
    .executeTakeFirstOrThrow();
  return Number(r.net_cents);
}

export interface NodeFillRow {
  id: number;
  name: string;
  status: string;
  used_cpu: number;
  cpu_cores: number;
  used_ram_mb: number;
  ram_mb: number;
  used_storage_gb: number;
  storage_gb: number;
}

export function nodeFill(db: Db): Promise<NodeFillRow[]> {
  return db.selectFrom('nodes')
    .select(['id', 'name', 'status', 'used_cpu', 'cpu_cores', 'used_ram_mb', 'ram_mb', 'used_storage_gb', 'storage_gb'])
    .orderBy('location_id').orderBy('id').execute();
}

export interface OpenTicketsRow {
  department_id: number | null;
  department: string | null;
  open: number;
}

/** Tickets not closed (nor deleted), per department (null: none), by department name. */
export async function openTicketsByDepartment(db: Db): Promise<OpenTicketsRow[]> {
  return db.selectFrom('tickets')
    .leftJoin('departments', 'departments.id', 'tickets.department_id')
    .select(['tickets.department_id', 'departments.name as department', sql<number>`count(*)::int`.as('open')])
    .where('tickets.status', '<>', 'closed').where('tickets.deleted_at', 'is', null)
    .groupBy(['tickets.department_id', 'departments.name'])
    .orderBy(sql`departments.name nulls last`)
    .execute();
}
