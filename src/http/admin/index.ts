// The admin API (/admin/v1): the operator's panel and `hostcloud admin` drive it with ADMIN_TOKEN.
// v2 envelope and errors; not rate limited; not part of the customer OpenAPI document.
import type { FastifyInstance } from 'fastify';
import { applyRouteConventions } from '../route-conventions.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as accountLists from './account-lists.ts';
import * as accounts from './accounts.ts';
import * as accountTimeline from './account-timeline.ts';
import * as apiKeys from './api-keys.ts';
import * as billing from './billing.ts';
import * as branding from './branding.ts';
import * as catalog from './catalog.ts';
import * as dashboard from './dashboard.ts';
import * as dns from './dns.ts';
import * as hosting from './hosting.ts';
import * as hostingNodes from './hosting-nodes.ts';
import * as impersonation from './impersonation.ts';
import * as invoiceSettings from './invoice-settings.ts';
import * as invoices from './invoices.ts';
import * as ipPools from './ip-pools.ts';
import * as nodes from './nodes.ts';
import * as machines from './machines.ts';
import * as notifications from './notifications.ts';
import * as operations from './operations.ts';
import * as panelInvitations from './panel-invitations.ts';
import * as payments from './payments.ts';
import * as power from './power.ts';
import * as providerFaults from './provider-faults.ts';
import * as registrar from './registrar.ts';
import * as registrarMessages from './registrar-messages.ts';
import * as setup from './setup.ts';
import * as vdcPools from './vdc-pools.ts';
import * as subUsers from './sub-users.ts';
import * as tickets from './tickets.ts';
import * as cannedReplies from './canned-replies.ts';
import * as staff from './staff.ts';
import * as audit from './audit.ts';
import { auditWrites } from './audit.ts';
import * as staffSession from './staff-session.ts';

export async function registerAdminRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  // The same error-response conventions as v2 (route-conventions.ts); not checked against a document.
  app.addHook('onRoute', applyRouteConventions);
  // Every admin route names the right a role needs to call it (core/staff/roles.ts).
  app.addHook('onRoute', (route) => {
    if (route.config?.auth === 'admin' && !route.config.right) throw new Error(`${[route.method].flat().join(',')} ${route.url}: an admin route must name its right (config.right)`);
    auditWrites(route, deps.db);
  });
  for (const r of [accounts, accountLists, apiKeys, catalog, ipPools, providerFaults, notifications, vdcPools, tickets, cannedReplies, subUsers, hosting, hostingNodes, registrar, registrarMessages, nodes, machines, power, billing, invoices, invoiceSettings, payments, panelInvitations, operations, setup, branding, dns, staff, staffSession, audit, dashboard]) r.register(app as TypedApp, deps);
  impersonation.register(app as TypedApp, deps);
  accountTimeline.register(app as TypedApp, deps);
}
