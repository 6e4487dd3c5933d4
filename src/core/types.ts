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
//
// The worker's terms (src/core/operations, src/jobs):
// - operation:    the durable record of long-running work on one resource (`operations` row): type,
//                 resource, params, status queued → running → completed | failed, progress, detail.
//                 At most one unfinished operation per resource (a unique index). The customer polls it.
// - catalogue:    core/operations/catalogue.ts, every operation type → resource type, scope area,
//                 runner. Starting an operation of a type takes exactly its runner's params.
// - params:       what a start writes for its runner (verb arguments, the charge to refund); never shown;
//                 secrets in them are erased when the operation finishes.
// - job:          the pg-boss row that tells a worker to run an operation; enqueued in the same
//                 transaction as the operation, so neither exists without the other. Only src/jobs
//                 (and the SQL of src/db) knows jobs: it maps each to its operation, and the core
//                 deals in operations (OperationQueue, batchCompletions' `alongside`).
// - runner:       what an operation type does on the worker (`Runner<P>`): `run` calls the provider
//                 outside any transaction and returns the database changes, `compensate` and
//                 `afterFailure` undo it after a final failure. Files: <family>/runners/<type>.ts.
// - claim:        a worker taking an operation for a run (status running, attempts + 1, a lease); a
//                 finished operation cannot be claimed, so a job delivered twice runs once.
// - lease:        how long a claim holds without renewal (OPERATION_LEASE_S); the holder renews it
//                 every third of that. A lapsed lease means a lost run: the sweep queues it again.
// - completion:   the run's result committed with the operation marked completed, in one transaction
//                 (or one statement for a batch), unless the operation was finished meanwhile.
// - compensation: the customer-visible undo of a finally failed operation (refund, release, cancel),
//                 in the very transaction that marks it failed.
// - attempt:      one run; a retryable failure (provider hiccup) is retried until the job's retry
//                 limit, then the operation fails and compensates.
// - sweep:        every worker's look for lapsed leases and fetched-but-unclaimed jobs
//                 (jobs/lost-operations.ts): each such operation is queued again once, in the
//                 transaction that takes its lease.
// - dead letter:  where a job goes once its retries are spent (jobs/dead-letters.ts): its operation
//                 is failed and compensated with its last error.
// - outcome:      what a request did (created, done), as the core returns it; each adapter picks the
//                 HTTP status. An Idempotency-Key's record stores the outcome with the answer's body.
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
