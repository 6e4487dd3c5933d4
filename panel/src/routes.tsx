// Every page of the panel and the path it answers, one file per page under pages/. A route with a
// scope shows a refusal to a sub-user without it (the API refuses it too: this only explains).
import type { AnyComponent } from 'preact';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { BillingPage } from './pages/billing.tsx';
import { DomainsPage } from './pages/domains.tsx';
import { DomainPage } from './pages/domain.tsx';
import { DnsZonePage, DnsZonesPage } from './pages/dns.tsx';
import { HostingPage } from './pages/hosting.tsx';
import { HostingSitePage } from './pages/hosting-site.tsx';
import { InvoicesPage } from './pages/invoices.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { ProfilePage } from './pages/profile.tsx';
import { SecurityPage } from './pages/security.tsx';
import { ServerCreatePage } from './pages/server-create.tsx';
import { ServerPage } from './pages/server.tsx';
import { ServersPage } from './pages/servers.tsx';
import { SshKeysPage } from './pages/ssh-keys.tsx';
import { StatementPage } from './pages/statement.tsx';
import { SubUsersPage } from './pages/sub-users.tsx';
import { TicketPage } from './pages/ticket.tsx';
import { TicketsPage } from './pages/tickets.tsx';
import { TopUpPage } from './pages/top-up.tsx';
import { VdcPage } from './pages/vdc.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';

export interface PageRoute {
  path: string;
  component: AnyComponent;
  scope?: string;
}

/** Pages for a signed-in person. */
export const ROUTES: PageRoute[] = [
  { path: '/panel', component: OverviewPage },
  { path: '/panel/servers', component: ServersPage, scope: 'servers:read' },
  { path: '/panel/servers/new', component: ServerCreatePage, scope: 'servers:write' },
  { path: '/panel/servers/:id', component: ServerPage, scope: 'servers:read' },
  { path: '/panel/vdc', component: VdcPage, scope: 'vdc:read' },
  { path: '/panel/domains', component: DomainsPage, scope: 'domains:read' },
  { path: '/panel/domains/:id', component: DomainPage, scope: 'domains:read' },
  { path: '/panel/dns', component: DnsZonesPage, scope: 'dns:read' },
  { path: '/panel/dns/:id', component: DnsZonePage, scope: 'dns:read' },
  { path: '/panel/web-hosting', component: HostingPage, scope: 'hosting:read' },
  { path: '/panel/web-hosting/:id', component: HostingSitePage, scope: 'hosting:read' },
  { path: '/panel/tickets', component: TicketsPage, scope: 'tickets:read' },
  { path: '/panel/tickets/:id', component: TicketPage, scope: 'tickets:read' },
  { path: '/panel/ssh-keys', component: SshKeysPage, scope: 'ssh_keys:read' },
  { path: '/panel/billing', component: BillingPage, scope: 'billing:read' },
  { path: '/panel/billing/top-up', component: TopUpPage, scope: 'billing:write' },
  { path: '/panel/billing/invoices', component: InvoicesPage, scope: 'billing:read' },
  { path: '/panel/billing/statement', component: StatementPage, scope: 'billing:read' },
  { path: '/panel/api-keys', component: ApiKeysPage },
  { path: '/panel/webhooks', component: WebhooksPage, scope: 'webhooks:read' },
  { path: '/panel/sub-users', component: SubUsersPage, scope: 'sub_users:read' },
  { path: '/panel/profile', component: ProfilePage, scope: 'account:read' },
  { path: '/panel/security', component: SecurityPage },
];
