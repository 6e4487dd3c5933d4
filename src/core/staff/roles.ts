// What each staff role may do on the admin API. Every admin route names one right (its config's
// `right`); a GET needs `<right>:read`, any other method `<right>:write` (or the route's `access`).
// This table is the one place that says which role holds which permission (docs/staff.md shows it).
import type { StaffRole } from '../../db/schema.ts';
import { ApiError } from '../errors.ts';

export const STAFF_ROLES = ['owner', 'admin', 'support', 'billing', 'readonly'] as const satisfies readonly StaffRole[];

/**
 * The areas of the admin API. `self` is what any signed-in member does to itself (its own
 * sessions, two-factor and tokens); the rules of the resource then decide whose it may touch.
 */
export const ADMIN_RIGHTS = [
  'accounts', 'access', 'billing', 'services', 'power', 'tickets', 'catalog', 'infrastructure',
  'operations', 'notifications', 'settings', 'staff', 'audit', 'self',
] as const;
export type AdminRight = (typeof ADMIN_RIGHTS)[number];
export type AdminAccess = 'read' | 'write';
export type AdminPermission = `${AdminRight}:${AdminAccess}`;

const reads = (...rights: AdminRight[]): AdminPermission[] => rights.map((r) => `${r}:read` as const);
const writes = (...rights: AdminRight[]): AdminPermission[] => rights.map((r) => `${r}:write` as const);
const every = (access: AdminAccess) => ADMIN_RIGHTS.map((r) => `${r}:${access}` as const);

const SELF: AdminPermission[] = ['self:read', 'self:write'];

export const ROLE_PERMISSIONS: Record<StaffRole, ReadonlySet<AdminPermission>> = {
  owner: new Set([...every('read'), ...every('write')]),
  admin: new Set([...every('read'), ...every('write')].filter((p) => !p.startsWith('staff:'))),
  support: new Set([
    ...reads('accounts', 'access', 'services', 'tickets', 'catalog', 'infrastructure', 'operations', 'settings'),
    ...writes('tickets', 'power'),
    ...SELF,
  ]),
  billing: new Set([
    ...reads('accounts', 'billing', 'services', 'tickets', 'catalog', 'operations', 'settings'),
    ...writes('accounts', 'billing'),
    ...SELF,
  ]),
  readonly: new Set([
    ...reads('accounts', 'access', 'billing', 'services', 'tickets', 'catalog', 'infrastructure', 'operations', 'settings', 'audit'),
    ...SELF,
  ]),
};

/** What a right means, for the role table in the docs and in errors. */
export const RIGHT_MEANING: Record<AdminRight, string> = {
  accounts: 'accounts: profile, status (suspend, close), reseller standing, lists',
  access: "customers' credentials: API keys, sub-users, panel invitations",
  billing: 'money: deposits, refunds, invoices, payments, tax rates, invoice settings, billing runs',
  services: 'servers, VDC VMs, VDC pools, web hosting, domains across accounts',
  power: 'power actions on customers\' machines',
  tickets: 'tickets: replies, notes, status, assignment; canned replies',
  catalog: 'plans, locations, OS images, TLD prices, hosting packages, departments, reseller tiers, unit prices',
  infrastructure: 'nodes, IP pools, hosting nodes, DNS resync, provider faults, migrations',
  operations: 'operations: list, cancel, retry',
  notifications: 'the notification outbox (it holds mailed links)',
  settings: 'installation settings and setup',
  staff: 'staff members, their roles, tokens and two-factor',
  audit: 'the audit log',
  self: 'your own sessions, two-factor and tokens',
};

export function isStaffRole(v: string): v is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(v);
}

export function mayDo(role: StaffRole, permission: AdminPermission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** Every permission a role holds, in the table's order (the console shows and hides by it: it keeps no copy of the table). */
export function permissionsOf(role: StaffRole): AdminPermission[] {
  return [...ROLE_PERMISSIONS[role]].sort((a, b) => {
    const [ra, aa] = a.split(':') as [AdminRight, AdminAccess];
    const [rb, ab] = b.split(':') as [AdminRight, AdminAccess];
    return ADMIN_RIGHTS.indexOf(ra) - ADMIN_RIGHTS.indexOf(rb) || aa.localeCompare(ab);
  });
}

/** 403 unless `role` holds `permission`. */
export function requirePermission(role: StaffRole, permission: AdminPermission): void {
  if (!mayDo(role, permission)) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `The ${role} role may not do this (it needs ${permission}); ask an owner`);
  }
}
