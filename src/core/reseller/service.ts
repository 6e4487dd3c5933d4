// Reseller status: the operator flags an account as a reseller; its discount is the percentage of
// the tier whose range holds its count of `active` servers, and it applies to every server charge
// (core/servers/charge.ts). A non-reseller sees `is_reseller: false`, discount 0 and no current
// tier (`current_tier: null`, no tier `is_current`): the ladder shows what reselling would give.
import { findStanding, listTiers, setResellerFlag } from '../../db/queries/reseller.ts';
import type { ResellerTier } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { DISCOUNT_TYPE, type Tier, basisPoints } from './discount.ts';

export interface Standing {
  isReseller: boolean;
  discountType: string;
  activeServers: number;
  /** The tier that applies: null for a non-reseller, or when no tier holds the count. */
  currentTier: Tier | null;
  /** The discount in basis points (1000 = 10 %); 0 without a current tier. */
  discountBp: number;
}

export async function resellerStanding(db: Db, accountId: string): Promise<Standing> {
  const row = await findStanding(db, accountId);
  if (!row) throw notFound('Account');
  const currentTier = row.is_reseller && row.tier_min !== null && row.tier_discount !== null
    ? { min_servers: row.tier_min, max_servers: row.tier_max, discount_percentage: row.tier_discount }
    : null;
  return {
    isReseller: row.is_reseller,
    discountType: row.discount_type ?? DISCOUNT_TYPE,
    activeServers: row.active_servers,
    currentTier,
    discountBp: currentTier ? basisPoints(currentTier.discount_percentage) : 0,
  };
}

export interface TierLadder {
  standing: Standing;
  tiers: (ResellerTier & { isCurrent: boolean })[];
}

export async function resellerTiers(db: Db, accountId: string): Promise<TierLadder> {
  const [standing, tiers] = await Promise.all([resellerStanding(db, accountId), listTiers(db)]);
  const current = standing.currentTier;
  return { standing, tiers: tiers.map((t) => ({ ...t, isCurrent: current !== null && t.min_servers === current.min_servers })) };
}

/** The operator's switch. `discount_type` has one value today, `percentage`. */
export async function setReseller(db: Db, accountId: string, isReseller: boolean, discountType: string, now: Date): Promise<Standing> {
  await inTransaction(db, async (trx) => {
    if (!(await setResellerFlag(trx, accountId, isReseller, discountType, now))) throw notFound('Account');
  });
  return resellerStanding(db, accountId);
}
