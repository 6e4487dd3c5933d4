// VDC pools: one row per account that has one. The *_used counters are moved by the trigger on
// vdc_vms (migration 0008), never here.
import type { Db } from '../connection.ts';
import type { VdcPool } from '../schema.ts';

export function findPool(db: Db, accountId: string): Promise<VdcPool | undefined> {
  return db.selectFrom('vdc_pools').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/**
 * The pool, locked until the transaction ends: every change of what the account's VMs hold
 * queues here, so a check made under this lock still holds when the change is written.
 */
export function lockPool(trx: Db, accountId: string): Promise<VdcPool | undefined> {
  return trx.selectFrom('vdc_pools').selectAll().where('account_id', '=', accountId).forUpdate().executeTakeFirst();
}

/** Makes an empty pool for the account unless it has one (the caller's transaction decides whether it stays). */
export async function ensurePool(trx: Db, accountId: string): Promise<void> {
  await trx.insertInto('vdc_pools').values({ account_id: accountId }).onConflict((oc) => oc.column('account_id').doNothing()).execute();
}

export interface PoolTotals {
  cpu_total?: number;
  ram_mb_total?: number;
  storage_gb_total?: number;
  ipv4_total?: number;
  ipv6_total?: number;
  bandwidth_mbit_total?: number;
  monthly_price_cents?: number | null;
}

export function updatePoolTotals(trx: Db, accountId: string, totals: PoolTotals): Promise<VdcPool> {
  return trx.updateTable('vdc_pools').set({ ...totals, updated_at: new Date() }).where('account_id', '=', accountId).returningAll().executeTakeFirstOrThrow();
}
