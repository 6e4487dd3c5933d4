// The core's shared types. The words they use (account, caller, sandbox, ledger, operation, job,
// runner, claim, lease, completion, compensation, …) are defined in docs/architecture.md, "Glossary".
import type { Db } from '../db/connection.ts';

export type { Db };

export { ALL_SCOPES, AREAS, READ_ONLY_AREAS } from './scope-names.ts';
export type { Access, Area, Scope } from './scope-names.ts';
import type { Scope } from './scope-names.ts';

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
