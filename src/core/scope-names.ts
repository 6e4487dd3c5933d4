// The permission areas and the scope names built from them: what API keys, sub-user permissions
// and panel sessions hold. A leaf module (it imports nothing), so the customer panel's page imports
// these very lists (panel/src/scopes.ts) instead of keeping a copy that could drift.

export const AREAS = [
  'servers', 'vdc', 'domains', 'hosting', 'billing', 'account', 'tickets', 'sub_users', 'ssh_keys', 'reseller', 'catalog', 'events', 'webhooks', 'dns',
] as const;
export type Area = (typeof AREAS)[number];
export type Access = 'read' | 'write';
export type Scope = `${Area}:${Access}`;

/** Areas with nothing to write: they have a `:read` scope only (events are written by the changes they report). */
export const READ_ONLY_AREAS: readonly Area[] = ['events'];

export const ALL_SCOPES: Scope[] = AREAS.flatMap((a) => (READ_ONLY_AREAS.includes(a) ? [`${a}:read`] : [`${a}:read`, `${a}:write`]) as Scope[]);
