// Recurring billing's queries: what is due, the per-period charge rows (unique per resource and
// period), the once-per-occasion notice markers, and what the customer and the operator read.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { BillableType, BillingCharge, BillingChargesTable, Domain, Server, VdcPool, WebHosting } from '../schema.ts';

export interface Due {
  id: string;
  account_id: string;
}

/** Servers whose period has ended (a suspended one waits here until it is paid or cancelled). */
export function dueServers(db: Db, now: Date, accountId?: string): Promise<Due[]> {
  let q = db.selectFrom('servers').select(['id', 'account_id'])
    .where('deleted_at', 'is', null).where('status', 'in', ['active', 'suspended']).where('next_billing_at', '<=', now);
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('next_billing_at').orderBy('id').execute();
}

export function dueWebHosting(db: Db, now: Date, accountId?: string): Promise<Due[]> {
  let q = db.selectFrom('web_hosting').select(['id', 'account_id'])
    .where('status', 'in', ['active', 'suspended']).where('next_billing_at', '<=', now);
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('next_billing_at').orderBy('id').execute();
}

/** Active domains whose expiry is within `until` (renewal window, notices) or past. */
export function domainsExpiringBy(db: Db, until: Date, accountId?: string): Promise<Due[]> {
  let q = db.selectFrom('domains').select(['id', 'account_id'])
    .where('status', '=', 'active').where('expires_at', '<=', until);
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('expires_at').orderBy('id').execute();
}

export function duePools(db: Db, now: Date, accountId?: string): Promise<Due[]> {
  let q = db.selectFrom('vdc_pools').select(['account_id as id', 'account_id'])
    .where('monthly_price_cents', 'is not', null)
    .where((eb) => eb.or([eb('next_billing_at', 'is', null), eb('next_billing_at', '<=', now)]));
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('account_id').execute();
}

/**
 * Whether a suspended service could be resumed now: it is still suspended, and its account's
 * balance covers the oldest charge due for it (or nothing is due for it any more).
 */
export async function resumableNow(db: Db, type: 'server' | 'web_hosting', id: string): Promise<boolean> {
  const table = type === 'server' ? sql.table('servers') : sql.table('web_hosting');
  const live = type === 'server' ? sql`AND r.deleted_at IS NULL` : sql``;
  const { rows } = await sql<{ ok: boolean }>`
    SELECT coalesce((
      SELECT c.amount_cents FROM billing_charges c
       WHERE c.resource_type = ${type} AND c.resource_id = r.id AND c.status = 'due'
       ORDER BY c.due_since LIMIT 1), 0) <= a.balance_cents AS ok
      FROM ${table} r JOIN accounts a ON a.id = r.account_id
     WHERE r.id = ${id} AND r.status = 'suspended' ${live}`.execute(db);
  return rows[0]?.ok === true;
}

/** Suspended services of a type with nothing left due: paid meanwhile (a deposit), waiting to be resumed. */
export function paidSuspended(db: Db, type: 'server' | 'web_hosting', accountId?: string): Promise<Due[]> {
  const notDue = sql<boolean>`NOT EXISTS (SELECT 1 FROM billing_charges c WHERE c.resource_type = ${type} AND c.resource_id = r.id AND c.status = 'due')`;
  let q = type === 'server'
    ? db.selectFrom('servers as r').select(['r.id', 'r.account_id']).where('r.status', '=', 'suspended').where('r.deleted_at', 'is', null).where(notDue)
    : db.selectFrom('web_hosting as r').select(['r.id', 'r.account_id']).where('r.status', '=', 'suspended').where(notDue);
  if (accountId) q = q.where('r.account_id', '=', accountId);
  return q.execute();
}

// The pass's locks skip a row another pass holds: that pass is billing it (and if it dies, its
// transaction rolls back and the next pass finds the row free and still due).
export function lockServerRow(trx: Db, id: string): Promise<Server | undefined> {
  return trx.selectFrom('servers').selectAll().where('id', '=', id).forUpdate().skipLocked().executeTakeFirst();
}

export function lockWebHostingRow(trx: Db, id: string): Promise<WebHosting | undefined> {
  return trx.selectFrom('web_hosting').selectAll().where('id', '=', id).forUpdate().skipLocked().executeTakeFirst();
}

export function lockDomainRow(trx: Db, id: string): Promise<Domain | undefined> {
  return trx.selectFrom('domains').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function lockPoolRow(trx: Db, accountId: string): Promise<VdcPool | undefined> {
  return trx.selectFrom('vdc_pools').selectAll().where('account_id', '=', accountId).forUpdate().skipLocked().executeTakeFirst();
}

/** Monthly fees of the server's snapshots that are not deleted: billed with the server's cycle. */
export async function snapshotFeesCents(db: Db, serverId: string): Promise<number> {
  const row = await db.selectFrom('snapshots').select(sql<string>`coalesce(sum(monthly_fee_cents), 0)`.as('total'))
    .where('server_id', '=', serverId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function advanceServerPeriod(trx: Db, id: string, p: { start: Date; end: Date; discountCents: number; status: 'active' | 'suspended' }): Promise<void> {
  await trx.updateTable('servers')
    .set({ period_started_at: p.start, next_billing_at: p.end, discount_cents: p.discountCents, status: p.status, updated_at: new Date() })
    .where('id', '=', id).execute();
}

export async function advanceWebHostingPeriod(trx: Db, id: string, p: { start: Date; end: Date; chargedCents: number }): Promise<void> {
  await trx.updateTable('web_hosting')
    .set({ period_started_at: p.start, next_billing_at: p.end, last_charge_cents: p.chargedCents, updated_at: new Date() })
    .where('id', '=', id).execute();
}

export async function advancePoolPeriod(trx: Db, accountId: string, p: { anchor: Date; end: Date }): Promise<void> {
  await trx.updateTable('vdc_pools').set({ billing_anchor_at: p.anchor, next_billing_at: p.end }).where('account_id', '=', accountId).execute();
}

export function findCharge(db: Db, type: BillableType, id: string, periodStart: Date): Promise<BillingCharge | undefined> {
  return db.selectFrom('billing_charges').selectAll()
    .where('resource_type', '=', type).where('resource_id', '=', id).where('period_start', '=', periodStart)
    .executeTakeFirst();
}

export type NewCharge = Required<Pick<Insertable<BillingChargesTable>, 'account_id' | 'resource_type' | 'resource_id' | 'period_start' | 'period_end' | 'amount_cents' | 'description' | 'due_since'>>;

/** The period's row, made `due`; a row already there (another pass) is returned as it is. */
export async function claimCharge(trx: Db, c: NewCharge): Promise<BillingCharge> {
  const made = await trx.insertInto('billing_charges').values({ ...c, status: 'due' })
    .onConflict((oc) => oc.constraint('billing_charges_once_per_period').doNothing())
    .returningAll().executeTakeFirst();
  return made ?? (await findCharge(trx, c.resource_type, c.resource_id, c.period_start))!;
}

export async function markChargePaid(trx: Db, id: number, transactionId: number | null, at: Date): Promise<void> {
  await trx.updateTable('billing_charges').set({ status: 'paid', transaction_id: transactionId, paid_at: at, last_error: null })
    .where('id', '=', id).execute();
}

export async function noteChargeUnpaid(trx: Db, id: number, error: string, fresh: boolean): Promise<void> {
  await trx.updateTable('billing_charges')
    .set((eb) => ({ status: 'due', last_error: error, transaction_id: null, paid_at: null, attempts: fresh ? eb.ref('attempts') : eb('attempts', '+', 1) }))
    .where('id', '=', id).execute();
}

/** Nothing is owed any more for a cancelled or deleted service. */
export async function voidDueCharges(trx: Db, type: BillableType, id: string): Promise<void> {
  await trx.updateTable('billing_charges').set({ status: 'void' })
    .where('resource_type', '=', type).where('resource_id', '=', id).where('status', '=', 'due').execute();
}

/** The account's unpaid charges, oldest first (the order a deposit pays them in). */
export function listDueCharges(db: Db, accountId?: string): Promise<BillingCharge[]> {
  let q = db.selectFrom('billing_charges').selectAll().where('status', '=', 'due');
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.orderBy('due_since').orderBy('id').execute();
}

/** The oldest charge still due for one of the account's resources (another account's never, whatever the id). */
export function findDueCharge(db: Db, accountId: string, type: BillableType, id: string): Promise<BillingCharge | undefined> {
  return db.selectFrom('billing_charges').selectAll()
    .where('account_id', '=', accountId).where('resource_type', '=', type).where('resource_id', '=', id).where('status', '=', 'due')
    .orderBy('due_since').executeTakeFirst();
}

/** True the first time a notice is claimed for this occasion; false once it has been sent. */
export async function claimNotice(trx: Db, type: string, id: string, kind: string, occasion: string): Promise<boolean> {
  const r = await trx.insertInto('billing_notices').values({ resource_type: type, resource_id: id, kind, occasion })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** The ledger row the caller's transaction has just written for the account (its row lock keeps others out). */
export async function latestTransactionId(trx: Db, accountId: string): Promise<number | null> {
  const row = await trx.selectFrom('transactions').select('id').where('account_id', '=', accountId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.id ?? null;
}

export interface OverdueRow {
  account_id: string;
  email: string;
  balance_cents: number;
  due_cents: number;
  charges: number;
  oldest_due_since: Date;
}

export async function listOverdueAccounts(db: Db, limit: number, offset: number): Promise<{ rows: OverdueRow[]; total: number }> {
  const base = db.selectFrom('billing_charges as c').innerJoin('accounts as a', 'a.id', 'c.account_id').where('c.status', '=', 'due');
  const [rows, count] = await Promise.all([
    base.select([
      'c.account_id', 'a.email', 'a.balance_cents',
      sql<string>`sum(c.amount_cents)`.as('due_cents'), sql<number>`count(*)::int`.as('charges'), sql<Date>`min(c.due_since)`.as('oldest_due_since'),
    ]).groupBy(['c.account_id', 'a.email', 'a.balance_cents']).orderBy('oldest_due_since').orderBy('c.account_id').limit(limit).offset(offset).execute(),
    base.select(sql<number>`count(DISTINCT c.account_id)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, due_cents: Number(r.due_cents) })), total: count.n };
}

/** What the upcoming list reads: the account's live billable resources. */
export function accountServersForBilling(db: Db, accountId: string): Promise<Server[]> {
  return db.selectFrom('servers').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .where('status', 'in', ['active', 'suspended']).execute();
}

export function accountHostingForBilling(db: Db, accountId: string): Promise<WebHosting[]> {
  return db.selectFrom('web_hosting').selectAll().where('account_id', '=', accountId).where('status', 'in', ['active', 'suspended']).execute();
}

export function accountDomainsForBilling(db: Db, accountId: string): Promise<Domain[]> {
  return db.selectFrom('domains').selectAll().where('account_id', '=', accountId).where('status', '=', 'active').where('auto_renew', '=', true).execute();
}
