// The VDC pool's arithmetic: its six buckets, what is available, and the refusals. The database
// has the last word on "never more than the total" (per-bucket CHECKs on the pool row, moved by a
// trigger on the VM rows); these checks, made under the pool's row lock, only word the refusal —
// naming every bucket that falls short — before the database would refuse the same change.
import { poolRefusal } from '../../db/refusals.ts';
import type { VdcPool } from '../../db/schema.ts';
import { ApiError, type FieldError } from '../errors.ts';

export const BUCKETS = ['cpu', 'ram_mb', 'storage_gb', 'ipv4', 'ipv6', 'bandwidth_mbit'] as const;
export type Bucket = (typeof BUCKETS)[number];
export type Amounts = Record<Bucket, number>;

/** The buckets a VM holds a share of. Bandwidth is the VDC's shared uplink: no VM reserves any. */
export const HELD_BUCKETS = ['cpu', 'ram_mb', 'storage_gb', 'ipv4', 'ipv6'] as const satisfies readonly Bucket[];
export type HeldBucket = (typeof HELD_BUCKETS)[number];
export type Holds = Record<HeldBucket, number>;

const UNITS: Record<Bucket, string> = { cpu: 'vCPU', ram_mb: 'MB RAM', storage_gb: 'GB disk', ipv4: 'IPv4', ipv6: 'IPv6', bandwidth_mbit: 'Mbit/s' };

export const ZERO: Amounts = { cpu: 0, ram_mb: 0, storage_gb: 0, ipv4: 0, ipv6: 0, bandwidth_mbit: 0 };

export function totalsOf(pool: VdcPool | undefined): Amounts {
  if (!pool) return { ...ZERO };
  return {
    cpu: pool.cpu_total, ram_mb: pool.ram_mb_total, storage_gb: pool.storage_gb_total,
    ipv4: pool.ipv4_total, ipv6: pool.ipv6_total, bandwidth_mbit: pool.bandwidth_mbit_total,
  };
}

export function usedOf(pool: VdcPool | undefined): Amounts {
  if (!pool) return { ...ZERO };
  return { cpu: pool.cpu_used, ram_mb: pool.ram_mb_used, storage_gb: pool.storage_gb_used, ipv4: pool.ipv4_used, ipv6: pool.ipv6_used, bandwidth_mbit: 0 };
}

/** total − used per bucket (never negative: the CHECKs keep used ≤ total). */
export function availableOf(pool: VdcPool | undefined): Amounts {
  const total = totalsOf(pool);
  const used = usedOf(pool);
  return Object.fromEntries(BUCKETS.map((b) => [b, Math.max(0, total[b] - used[b])])) as Amounts;
}

/**
 * QUOTA_EXCEEDED naming every bucket of `more` (additional amounts) that the pool cannot give.
 * No pool counts as an empty one.
 */
export function requireRoom(pool: VdcPool | undefined, more: Partial<Holds>): void {
  const available = availableOf(pool);
  const total = totalsOf(pool);
  const errors: FieldError[] = [];
  for (const b of HELD_BUCKETS) {
    const need = more[b] ?? 0;
    if (need > 0 && need > available[b]) {
      errors.push({ field: b, code: 'QUOTA_EXCEEDED', message: `needs ${need} ${UNITS[b]}; the pool has ${available[b]} of ${total[b]} available` });
    }
  }
  if (errors.length === 0) return;
  throw quotaExceeded(pool !== undefined, errors);
}

function quotaExceeded(hasPool: boolean, errors: FieldError[]): ApiError {
  const buckets = errors.map((e) => e.field).join(', ');
  return new ApiError('QUOTA_EXCEEDED', hasPool
    ? `The VDC pool has not enough left in ${buckets}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`
    : `The account has no VDC pool${buckets ? ` (it lacks ${buckets})` : ''}; the pool is set up by your provider`, errors);
}

/**
 * The database's refusal of a change of holdings (a CHECK of the pool, or no pool) as
 * QUOTA_EXCEEDED naming the bucket; anything else unchanged. Only reached if a check above was
 * skipped: under the pool lock they agree.
 */
export function quotaFailure(e: unknown): unknown {
  const refused = poolRefusal(e);
  if (!refused) return e;
  if (refused.kind === 'no_pool') return quotaExceeded(false, []);
  return quotaExceeded(true, [{ field: refused.bucket, code: 'QUOTA_EXCEEDED', message: 'is more than the pool has available' }]);
}

/** The buckets whose new total would fall below what the VMs use: 409 naming each. */
export function requireTotalsCoverUse(pool: VdcPool | undefined, totals: Amounts): void {
  const used = usedOf(pool);
  const errors: FieldError[] = BUCKETS.filter((b) => totals[b] < used[b])
    .map((b) => ({ field: b, code: 'INVALID', message: `cannot be ${totals[b]}: the VMs use ${used[b]} ${UNITS[b]}` }));
  if (errors.length === 0) return;
  throw new ApiError('STATE_CONFLICT', `The pool cannot shrink below what its VMs use: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}; resize or delete VMs first`, errors);
}

/** A CHECK of the pool refusing lower totals (a concurrent change beat the check above) as the same 409. */
export function totalsFailure(e: unknown): unknown {
  const refused = poolRefusal(e);
  const bucket = refused?.kind === 'over_total' ? refused.bucket : undefined;
  if (!bucket) return e;
  return new ApiError('STATE_CONFLICT', `The pool cannot shrink below what its VMs use (${bucket}); resize or delete VMs first`, [
    { field: bucket, code: 'INVALID', message: 'is below what the VMs use' },
  ]);
}
