// A reseller's standing: the flag, the count of its active servers and the tier whose range holds
// that count — in one query, because every server charge asks for it.
import { sql } from 'kysely';
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

export function findStanding(db: Db, accountId: string): Promise<StandingRow | undefined> {
  return db.selectFrom('accounts as a')
    .innerJoinLateral(
      (eb) => eb.selectFrom('servers as s').select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.account_id', '=', 'a.id').where('s.status', '=', 'active').where('s.deleted_at', 'is', null).as('c'),
      (join) => join.onTrue(),
    )
    .leftJoin('reseller_tiers as t', (join) => join
      .on('t.min_servers', '<=', sql<number>`c.n`)
      .on((eb) => eb.or([eb('t.max_servers', 'is', null), eb('t.max_servers', '>=', sql<number>`c.n`)])))
    .select(['a.is_reseller', 'a.discount_type', 'c.n as active_servers', 't.min_servers as tier_min', 't.max_servers as tier_max', 't.discount_percentage as tier_discount'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
}

export function listTiers(db: Db): Promise<ResellerTier[]> {
  return db.selectFrom('reseller_tiers').selectAll().orderBy('min_servers').execute();
}

export async function setResellerFlag(db: Db, accountId: string, isReseller: boolean, discountType: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('accounts').set({ is_reseller: isReseller, discount_type: discountType, updated_at: at })
    .where('id', '=', accountId).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
