// A reseller's standing: the flag, the count of its active servers and the tier whose range holds
// that count — in one query, because every server charge asks for it.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { ResellerTier } from '../schema.ts';

export interface StandingRow {
  is_reseller: boolean;
  discount_type: string | null;
  active_servers: number;
  /** The matching tier (ranges never overlap); null fields when no tier holds the count. */
  tier_min: number | null;
  tier_max: number | null;
  tier_discount: string | null;
}

/** Whether the tier `alias` holds a count of `servers` active servers (its max null: no upper bound). */
const tierHolds = (alias: string, servers: RawBuilder<number>) =>
  sql<boolean>`(${sql.ref(`${alias}.min_servers`)} <= ${servers} AND (${sql.ref(`${alias}.max_servers`)} IS NULL OR ${sql.ref(`${alias}.max_servers`)} >= ${servers}))`;

export function findStanding(db: Db, accountId: string): Promise<StandingRow | undefined> {
  return db.selectFrom('accounts as a')
    .innerJoinLateral(
      (eb) => eb.selectFrom('servers as s').select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.account_id', '=', 'a.id').where('s.status', '=', 'active').where('s.deleted_at', 'is', null).as('c'),
      (join) => join.onTrue(),
    )
    .leftJoin('reseller_tiers as t', (join) => join.on(tierHolds('t', sql<number>`c.n`)))
    .select(['a.is_reseller', 'a.discount_type', 'c.n as active_servers', 't.min_servers as tier_min', 't.max_servers as tier_max', 't.discount_percentage as tier_discount'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
}

/**
 * The discount percentage of the account's current tier, as a scalar subquery on `accountId` (an
 * SQL expression): null for an account that is not a reseller or whose count no tier holds. The
 * account's servers are counted only for a reseller, so that a detail read of a large non-reseller
 * account does not count 10,000 servers to learn it has no discount.
 */
export const tierDiscountOf = (accountId: RawBuilder<string>) => sql<string | null>`(
  SELECT CASE WHEN ra.is_reseller THEN (
    SELECT rt.discount_percentage::text FROM reseller_tiers rt,
      (SELECT count(*)::int AS n FROM servers rs WHERE rs.account_id = ra.id AND rs.status = 'active' AND rs.deleted_at IS NULL) rc
    WHERE ${tierHolds('rt', sql<number>`rc.n`)}
    ORDER BY rt.min_servers DESC LIMIT 1) END
  FROM accounts ra WHERE ra.id = ${accountId})`;

/** The discount percentage of the account's current tier (null: none), in one round trip. */
export async function findTierDiscount(db: Db, accountId: string): Promise<string | null> {
  const row = await db.selectNoFrom(tierDiscountOf(sql.val(accountId)).as('d')).executeTakeFirstOrThrow();
  return row.d;
}

export function listTiers(db: Db): Promise<ResellerTier[]> {
  return db.selectFrom('reseller_tiers').selectAll().orderBy('min_servers').execute();
}

export async function setResellerFlag(db: Db, accountId: string, isReseller: boolean, discountType: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('accounts').set({ is_reseller: isReseller, discount_type: discountType, updated_at: at })
    .where('id', '=', accountId).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
