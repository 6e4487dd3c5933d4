// Glossary
// - account:      a customer. Owns a USD balance and every resource; status active | suspended | closed.
// - API key:      a customer's credential (`hc_live_…` or `hc_test_…`). Stored as a SHA-256 hash;
//                 carries an IP allowlist (mandatory) and optional scopes.
// - caller:       the authenticated side of a request: account, key, scopes, sandbox flag.
// - sandbox:      requests made with a test key; they run for real but are rolled back (servers issue).
// - ledger:       the `transactions` table. The only way money moves; each row applies itself to the
//                 balance in the same statement.
// - cents:        every amount in the core is an integer number of US cents.
// - area / scope: an API area (servers, billing, …); a scope is `<area>:read` or `<area>:write`.
// - catalog:      operator-managed, customer-readable rows: plans, locations, OS versions, TLD prices,
//                 hosting packages, departments, reseller tiers, unit prices, v1 package families.
import type { Db } from '../db/connection.ts';

export type { Db };

export const AREAS = [
  'servers', 'vdc', 'domains', 'hosting', 'billing', 'account', 'tickets', 'sub_users', 'ssh_keys', 'reseller', 'catalog',
] as const;
export type Area = (typeof AREAS)[number];
export type Access = 'read' | 'write';
export type Scope = `${Area}:${Access}`;

export const ALL_SCOPES: Scope[] = AREAS.flatMap((a) => [`${a}:read`, `${a}:write`] as Scope[]);

export interface Caller {
  accountId: string;
  /** The API key of the request; null for a customer panel session (src/http/panel). */
  keyId: string | null;
  /** What the key may do: its scopes, narrowed to its sub-user's permissions. null = every scope. */
  scopes: Scope[] | null;
  sandbox: boolean;
  /** The sub-user the key acts for; null when it acts for the account itself. */
  subUserId: number | null;
}
