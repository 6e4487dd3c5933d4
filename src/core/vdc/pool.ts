// The VDC pool: what the operator gave an account (PUT /admin/v1/accounts/{id}/vdc-pool) and what
// its VMs hold of it. The customer reads it (GET /v2/vdc/resources); the operator sets it. An
// account without a pool reads as one with every bucket at zero (`has_pool: false`).
import { findAccount } from '../../db/queries/accounts.ts';
import { ensurePool, findPool, lockPool, updatePoolTotals } from '../../db/queries/vdc-pools.ts';
import type { VdcPool } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { MAX_AMOUNT_CENTS, formatCents, parseAmount } from '../money.ts';
import type { Db } from '../types.ts';
import { type Amounts, BUCKETS, type Bucket, availableOf, requireTotalsCoverUse, totalsFailure, totalsOf, usedOf } from './quota.ts';

export interface PoolView {
  accountId: string;
  hasPool: boolean;
  total: Amounts;
  used: Amounts;
  available: Amounts;
  /** What the pool costs a month (billed by recurring billing); null = not billed. */
  monthlyPriceCents: number | null;
  updatedAt: Date | null;
}

/** Largest total of any bucket: far beyond any real pool, well inside an int column. */
export const MAX_BUCKET_TOTAL = 1_000_000_000;

export function poolView(accountId: string, pool: VdcPool | undefined): PoolView {
  return {
    accountId,
    hasPool: pool !== undefined,
    total: totalsOf(pool),
    used: usedOf(pool),
    available: availableOf(pool),
    monthlyPriceCents: pool?.monthly_price_cents ?? null,
    updatedAt: pool?.updated_at ?? null,
  };
}

/** The caller's pool (GET /v2/vdc/resources). */
export async function getVdcResources(ctx: Ctx): Promise<PoolView> {
  return poolView(ctx.accountId, await findPool(ctx.db, ctx.accountId));
}

/** An account's pool for the operator; an unknown account is 404. */
export async function getAccountPool(db: Db, accountId: string): Promise<PoolView> {
  const [account, pool] = await Promise.all([findAccount(db, accountId), findPool(db, accountId)]);
  if (!account) throw notFound('Account');
  return poolView(accountId, pool);
}

/** What the operator sets: any of the six totals, and the monthly price ("25.00", or null for none). */
export type PoolInput = Partial<Record<Bucket, number>> & { monthly_price?: string | null };

/**
 * Sets an account's pool, creating it on first use. A total left out keeps its value (0 in a new
 * pool); none may drop below what the VMs use (409 STATE_CONFLICT naming each bucket). Checked and
 * written under the pool's row lock, so a VM created meanwhile is counted.
 */
export async function setAccountPool(db: Db, accountId: string, input: PoolInput): Promise<PoolView> {
  for (const b of BUCKETS) {
    const v = input[b];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0 && v <= MAX_BUCKET_TOTAL)) throw invalid(b, `must be a whole number from 0 to ${MAX_BUCKET_TOTAL}`);
  }
  let priceCents: number | null | undefined;
  if (input.monthly_price === null) priceCents = null;
  else if (input.monthly_price !== undefined) {
    priceCents = parseAmount(input.monthly_price.trim());
    if (priceCents === null || priceCents > MAX_AMOUNT_CENTS) {
      throw invalid('monthly_price', `must be an amount like 25.00 (at most ${formatCents(MAX_AMOUNT_CENTS)}), or null for none`);
    }
  }
  return inTransaction(db, async (trx) => {
    if (!(await findAccount(trx, accountId))) throw notFound('Account');
    await ensurePool(trx, accountId);
    const pool = await lockPool(trx, accountId);
    const totals = { ...totalsOf(pool), ...Object.fromEntries(BUCKETS.filter((b) => input[b] !== undefined).map((b) => [b, input[b]])) } as Amounts;
    requireTotalsCoverUse(pool, totals);
    try {
      const updated = await updatePoolTotals(trx, accountId, {
        cpu_total: totals.cpu, ram_mb_total: totals.ram_mb, storage_gb_total: totals.storage_gb,
        ipv4_total: totals.ipv4, ipv6_total: totals.ipv6, bandwidth_mbit_total: totals.bandwidth_mbit,
        ...(priceCents !== undefined ? { monthly_price_cents: priceCents } : {}),
      });
      return poolView(accountId, updated);
    } catch (e) {
      throw totalsFailure(e);
    }
  });
}
