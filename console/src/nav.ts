// The console's page registry: one line per page — its path, its label in the navigation (none: a
// page reached by links, e.g. one account), and the right a role needs to see it (the nav hides it
// and the page explains; the API refuses anyway). A page is one file under pages/. Order = nav order.
import type { AnyComponent } from 'preact';
import { DashboardPage } from './pages/dashboard.tsx';
import { AccountsPage } from './pages/accounts.tsx';
import { AccountPage } from './pages/account.tsx';
import { AuditLogPage } from './pages/audit.tsx';
import { StaffMemberPage, StaffPage } from './pages/staff.tsx';
import { InvoiceSettingsPage, InvoicesPage, OverduePage, PaymentsPage, TaxRatesPage } from './pages/billing.tsx';
import { CatalogPage } from './pages/catalog.tsx';
import { IpPoolPage, IpPoolsPage, NodesPage } from './pages/nodes.tsx';
import { NotificationsPage } from './pages/notifications.tsx';
import { OperationPage, OperationsPage } from './pages/operations.tsx';
import { ServersPage, VdcVmsPage } from './pages/servers.tsx';
import { BrandingPage } from './pages/branding.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { CannedRepliesPage, TicketPage, TicketsPage } from './pages/tickets.tsx';

export interface ConsolePage {
  /** Under /admin; `:name` parts reach the page as props (`/admin/accounts/:id` → `id`). */
  path: string;
  label?: string;
  /** `accounts:read`…: the rights of core/staff/roles.ts; none: every signed-in member. */
  right?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  page: AnyComponent<any>;
}

export const PAGES: ConsolePage[] = [
  { path: '/admin', label: 'Dashboard', right: 'settings:read', page: DashboardPage },
  { path: '/admin/accounts', label: 'Accounts', right: 'accounts:read', page: AccountsPage },
  { path: '/admin/accounts/:id', right: 'accounts:read', page: AccountPage },
  { path: '/admin/servers', label: 'Servers', right: 'services:read', page: ServersPage },
  { path: '/admin/vdc-vms', right: 'services:read', page: VdcVmsPage },
  { path: '/admin/operations', label: 'Operations', right: 'operations:read', page: OperationsPage },
  { path: '/admin/operations/:id', right: 'operations:read', page: OperationPage },
  { path: '/admin/nodes', label: 'Nodes', right: 'infrastructure:read', page: NodesPage },
  { path: '/admin/ip-pools', right: 'infrastructure:read', page: IpPoolsPage },
  { path: '/admin/ip-pools/:id', right: 'infrastructure:read', page: IpPoolPage },
  { path: '/admin/tickets', label: 'Tickets', right: 'tickets:read', page: TicketsPage },
  { path: '/admin/tickets/canned-replies', right: 'tickets:read', page: CannedRepliesPage },
  { path: '/admin/tickets/:id', right: 'tickets:read', page: TicketPage },
  { path: '/admin/billing', label: 'Billing', right: 'billing:read', page: InvoicesPage },
  { path: '/admin/billing/payments', right: 'billing:read', page: PaymentsPage },
  { path: '/admin/billing/overdue', right: 'billing:read', page: OverduePage },
  { path: '/admin/billing/tax-rates', right: 'billing:read', page: TaxRatesPage },
  { path: '/admin/billing/invoice-settings', right: 'billing:read', page: InvoiceSettingsPage },
  { path: '/admin/catalog', label: 'Catalog', right: 'catalog:read', page: CatalogPage },
  { path: '/admin/catalog/:family', right: 'catalog:read', page: CatalogPage },
  { path: '/admin/notifications', label: 'Notifications', right: 'notifications:read', page: NotificationsPage },
  { path: '/admin/settings', label: 'Settings', right: 'settings:read', page: SettingsPage },
  { path: '/admin/settings/branding', right: 'settings:read', page: BrandingPage },
  { path: '/admin/staff', label: 'Staff', right: 'staff:read', page: StaffPage },
  { path: '/admin/staff/:id', right: 'staff:read', page: StaffMemberPage },
  { path: '/admin/audit-log', label: 'Audit log', right: 'audit:read', page: AuditLogPage },
];
