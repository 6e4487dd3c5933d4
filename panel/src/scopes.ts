// The permission areas and how they read; the same names as API key scopes and sub-user permissions.
export const AREAS: { area: string; label: string }[] = [
  { area: 'servers', label: 'Servers' },
  { area: 'vdc', label: 'VDC' },
  { area: 'domains', label: 'Domains' },
  { area: 'hosting', label: 'Web hosting' },
  { area: 'billing', label: 'Billing' },
  { area: 'account', label: 'Account' },
  { area: 'tickets', label: 'Tickets' },
  { area: 'sub_users', label: 'Sub-users' },
  { area: 'ssh_keys', label: 'SSH keys' },
  { area: 'reseller', label: 'Reseller' },
  { area: 'catalog', label: 'Catalog' },
  { area: 'events', label: 'Events' },
  { area: 'webhooks', label: 'Webhooks' },
];

export const ALL_SCOPES = AREAS.flatMap((a) => [`${a.area}:read`, `${a.area}:write`]);
