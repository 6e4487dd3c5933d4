// The permission areas as the panel shows them: the server's own areas and scope names (a leaf
// module of the core, never a copy), each area with its label. A scope the server does not have
// (events:write: events are only read) is never offered.
import { ALL_SCOPES, AREAS, type Access, type Area } from '../../src/core/scope-names.ts';

const LABELS: Record<Area, string> = {
  servers: 'Servers',
  vdc: 'VDC',
  domains: 'Domains',
  hosting: 'Web hosting',
  billing: 'Billing',
  account: 'Account',
  tickets: 'Tickets',
  sub_users: 'Sub-users',
  ssh_keys: 'SSH keys',
  reseller: 'Reseller',
  catalog: 'Catalog',
  events: 'Events',
  webhooks: 'Webhooks',
  dns: 'DNS',
};

/** Each area with its label and the accesses it has (read, and write where the server has it). */
export const AREA_CHOICES: { area: Area; label: string; accesses: Access[] }[] = AREAS.map((area) => ({
  area,
  label: LABELS[area],
  accesses: (['read', 'write'] as const).filter((a) => (ALL_SCOPES as string[]).includes(`${area}:${a}`)),
}));

/** Every scope the panel offers, in the server's order. */
export const OFFERED_SCOPES: string[] = AREA_CHOICES.flatMap((c) => c.accesses.map((a) => `${c.area}:${a}`));
