// GET /admin/v1/dashboard: the console's first page. Every role reads it (settings:read); the
// money figures are null for a role that does not read billing.
import { Type } from '@sinclair/typebox';
import { dashboard } from '../../core/dashboard/summary.ts';
import { ts } from '../../core/time.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, Timestamp, errorResponses } from '../schemas.ts';
import { principalOf } from './principal.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'settings' as const };

const Cents = Type.Integer({ description: 'US cents' });

const DashboardSchema = Type.Object({
  at: Timestamp,
  accounts: Type.Integer({ description: 'Accounts not closed' }),
  active_servers: Type.Integer(),
  failed_operations_24h: Type.Integer({ description: 'Operations that failed in the last 24 hours' }),
  queue_depth: Type.Integer({ description: 'Operations queued, not yet claimed by a worker' }),
  revenue_month: Type.Union([Type.Object({
    net_cents: { ...Cents, description: 'Payments settled this month (UTC), net of tax, less the refunds completed this month' },
    refunded_cents: Cents,
    since: Timestamp,
  }), Type.Null()], { description: 'null: the role does not read billing' }),
  payments_today: Type.Union([Type.Object({ count: Type.Integer(), gross_cents: Cents, since: Timestamp }), Type.Null()], { description: 'Payments settled today (UTC); null: the role does not read billing' }),
  nodes: Type.Array(Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    status: Type.String(),
    cpu: Type.Object({ used: Type.Integer(), capacity: Type.Integer() }),
    ram_mb: Type.Object({ used: Type.Integer(), capacity: Type.Integer() }),
    storage_gb: Type.Object({ used: Type.Integer(), capacity: Type.Integer() }),
  })),
  open_tickets: Type.Array(Type.Object({
    department_id: Type.Union([Type.Integer(), Type.Null()]),
    department: Type.Union([Type.String(), Type.Null()], { description: 'null: no department' }),
    open: Type.Integer({ description: 'Tickets not closed' }),
  })),
});

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/dashboard', {
    config: admin,
    schema: {
      tags: ['Admin dashboard'], operationId: 'getDashboard', summary: 'The installation at a glance: accounts, revenue, servers, operations, node fill, tickets, payments',
      response: { 200: Envelope(DashboardSchema), ...errorResponses() },
    },
  }, async (request) => {
    const d = await dashboard(deps.db, principalOf(request).role, deps.now());
    return ok(request, {
      at: ts(d.at),
      accounts: d.accounts,
      active_servers: d.active_servers,
      failed_operations_24h: d.failed_operations_24h,
      queue_depth: d.queue_depth,
      revenue_month: d.revenue_month && { ...d.revenue_month, since: ts(d.revenue_month.since) },
      payments_today: d.payments_today && { ...d.payments_today, since: ts(d.payments_today.since) },
      nodes: d.nodes.map((n) => ({
        id: n.id, name: n.name, status: n.status,
        cpu: { used: n.used_cpu, capacity: n.cpu_cores },
        ram_mb: { used: n.used_ram_mb, capacity: n.ram_mb },
        storage_gb: { used: n.used_storage_gb, capacity: n.storage_gb },
      })),
      open_tickets: d.open_tickets,
    });
  });
}
