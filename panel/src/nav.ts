// The panel's navigation: one entry per section, shown to those who hold its scope. A new
// section is a line here and a route in routes.tsx; a section's own pages go in SUB_NAV.
export interface NavItem {
  href: string;
  label: string;
  /** The permission that shows the entry; none: everyone signed in. */
  scope?: string;
  /** Shown only to an account that has this (a VDC pool, set by the operator): an empty section is noise. */
  needs?: 'vdc_pool';
}

export const NAV: NavItem[] = [
  { href: '/panel', label: 'Overview' },
  { href: '/panel/servers', label: 'Servers', scope: 'servers:read' },
  { href: '/panel/vdc', label: 'VDC', scope: 'vdc:read', needs: 'vdc_pool' },
  { href: '/panel/domains', label: 'Domains', scope: 'domains:read' },
  { href: '/panel/dns', label: 'DNS', scope: 'dns:read' },
  { href: '/panel/web-hosting', label: 'Web hosting', scope: 'hosting:read' },
  { href: '/panel/tickets', label: 'Tickets', scope: 'tickets:read' },
  { href: '/panel/ssh-keys', label: 'SSH keys', scope: 'ssh_keys:read' },
  { href: '/panel/billing', label: 'Billing', scope: 'billing:read' },
  { href: '/panel/api-keys', label: 'API keys' },
  { href: '/panel/webhooks', label: 'Webhooks', scope: 'webhooks:read' },
  { href: '/panel/sub-users', label: 'Sub-users', scope: 'sub_users:read' },
  { href: '/panel/profile', label: 'Profile', scope: 'account:read' },
  { href: '/panel/security', label: 'Security' },
];

/** Links inside a section, shown above its pages (Billing: balance and transactions, top-up, invoices, the monthly statement). */
export const SUB_NAV: Record<string, NavItem[]> = {
  '/panel/billing': [
    { href: '/panel/billing', label: 'Balance and transactions', scope: 'billing:read' },
    { href: '/panel/billing/top-up', label: 'Top up', scope: 'billing:write' },
    { href: '/panel/billing/invoices', label: 'Invoices', scope: 'billing:read' },
    { href: '/panel/billing/statement', label: 'Monthly statement', scope: 'billing:read' },
  ],
};
