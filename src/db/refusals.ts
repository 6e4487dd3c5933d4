// What PostgreSQL refused, in the terms the core decides on. SQLSTATEs and the names of the
// constraints the core tells apart stay here: the core asks "was the host name taken?" or "was the
// key's row locked?", never matches '23505' or a constraint's name itself (ESLint refuses SQLSTATE
// literals in src/core). test/db/refusals.test.ts checks that every constraint named here exists in
// the schema.
import { pgCode, pgConstraint } from './connection.ts';
import { POOL_SHORT } from './queries/ip-pools.ts';

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const FOREIGN_KEY_VIOLATION = '23503';
const EXCLUSION_VIOLATION = '23P01';
const LOCK_NOT_AVAILABLE = '55P03';
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';
/** hc_abort(reason) (migration 0019): a check of a one-statement write failed; nothing was written. */
const STATEMENT_ABORTED = 'HC002';

/** Unique indexes whose refusal the core turns into its own answer, by what the refusal means to it. */
const UNIQUE_REFUSALS = {
  hostname_taken: 'servers_live_hostname',
  domain_taken: 'domains_live_name',
  hosting_domain_taken: 'web_hosting_live_domain',
  refund_key_taken: 'payment_refunds_request_key_key',
} as const;
export type UniqueRefusal = keyof typeof UNIQUE_REFUSALS;

/** CHECKs (and triggers raising check_violation under a name) the core tells apart, by meaning. */
const CHECK_REFUSALS = {
  node_full: 'nodes_capacity',
  balance_short: 'accounts_balance_not_negative',
  no_vdc_pool: 'vdc_pools_exists',
} as const;
export type CheckRefusal = keyof typeof CHECK_REFUSALS;

/** Every constraint named here (test/db/refusals.test.ts finds each in the schema). */
export const NAMED_CONSTRAINTS: readonly string[] = [...Object.values(UNIQUE_REFUSALS), ...Object.values(CHECK_REFUSALS)];

/** A unique index refused the write (`refusal`: the one that means that in particular). */
export function isUniqueViolation(e: unknown, refusal?: UniqueRefusal): boolean {
  return pgCode(e) === UNIQUE_VIOLATION && (refusal === undefined || pgConstraint(e) === UNIQUE_REFUSALS[refusal]);
}

/** A CHECK refused the write (`refusal`: the one that means that in particular). */
export function isCheckViolation(e: unknown, refusal?: CheckRefusal): boolean {
  return pgCode(e) === CHECK_VIOLATION && (refusal === undefined || pgConstraint(e) === CHECK_REFUSALS[refusal]);
}

/** The write named a row that does not exist (a foreign key). */
export function isForeignKeyViolation(e: unknown): boolean {
  return pgCode(e) === FOREIGN_KEY_VIOLATION;
}

/** Waiting for a row lock took longer than lock_timeout: another transaction holds the row. */
export function isLockNotAvailable(e: unknown): boolean {
  return pgCode(e) === LOCK_NOT_AVAILABLE;
}

/** An address pool had too few free addresses for a machine (hc_lease_addresses, queries/ip-pools.ts). */
export function isPoolShort(e: unknown): boolean {
  return pgCode(e) === POOL_SHORT;
}

/**
 * A write made in one statement (db/queries/billable-create.ts) wrote nothing, and the transaction
 * way must decide: one of its checks failed (hc_abort), a unique index or a CHECK (a name taken, a
 * node's capacity) refused it, an address pool was short, or it lost a race (deadlock, serialization).
 */
export function isDeclinedStatement(e: unknown): boolean {
  const code = pgCode(e);
  return code === STATEMENT_ABORTED || code === UNIQUE_VIOLATION || code === CHECK_VIOLATION || code === DEADLOCK_DETECTED || code === SERIALIZATION_FAILURE
    || code === POOL_SHORT;
}

/** A VDC pool's refusal of a change of holdings: the account has none, or a bucket would exceed its total. */
export type PoolRefusal = { kind: 'no_pool' } | { kind: 'over_total'; bucket: string };

const WITHIN_TOTAL = /^vdc_pools_(\w+)_within_total$/;

export function poolRefusal(e: unknown): PoolRefusal | undefined {
  if (pgCode(e) !== CHECK_VIOLATION) return undefined;
  const constraint = pgConstraint(e) ?? '';
  if (constraint === CHECK_REFUSALS.no_vdc_pool) return { kind: 'no_pool' };
  const bucket = WITHIN_TOTAL.exec(constraint)?.[1];
  return bucket ? { kind: 'over_total', bucket } : undefined;
}

/**
 * A catalog row the database refused: a duplicate key, an inconsistent row (a CHECK: a maximum
 * below its minimum), an overlap (the reseller tier ladder's exclusion constraint); with the
 * column the constraint is about, when it is about one.
 */
export interface RowRefusal {
  kind: 'duplicate' | 'inconsistent' | 'overlap';
  column: string | undefined;
}

/**
 * The column a refused constraint of `table` is about. PostgreSQL names single-column constraints
 * `<table>_<column>_key` / `_check`; those over several columns (the maximum-above-minimum checks,
 * the tier ladder) are listed.
 */
const CONSTRAINT_COLUMN: Record<string, string> = {
  tld_prices_pkey: 'tld',
  tld_prices_check: 'years_max',
  reseller_tiers_check: 'max_servers',
  reseller_tiers_no_overlap: 'min_servers',
  operating_systems_family_version_key: 'version',
};

function constraintColumn(table: string, constraint: string | undefined): string | undefined {
  if (!constraint) return undefined;
  const listed = CONSTRAINT_COLUMN[constraint];
  if (listed) return listed;
  return /^(\w+?)_(key|check)$/.exec(constraint.startsWith(`${table}_`) ? constraint.slice(table.length + 1) : '')?.[1];
}

const ROW_REFUSALS: Record<string, RowRefusal['kind']> = { [UNIQUE_VIOLATION]: 'duplicate', [CHECK_VIOLATION]: 'inconsistent', [EXCLUSION_VIOLATION]: 'overlap' };

export function rowRefusal(e: unknown, table: string): RowRefusal | undefined {
  const kind = ROW_REFUSALS[pgCode(e) ?? ''];
  return kind ? { kind, column: constraintColumn(table, pgConstraint(e)) } : undefined;
}
