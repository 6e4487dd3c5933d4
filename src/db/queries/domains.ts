// Customers' domains. One live domain per name across every account is the unique index
// domains_live_name (migration 0006); these queries never decide availability alone.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Domain, DomainStatus, DomainsTable, TldPrice } from '../schema.ts';

/** A domain with the price-list row of its TLD (its detail shows register and renewal prices). */
export interface DomainRow extends Domain {
  price: TldPrice;
}

export function insertDomain(db: Db, row: Insertable<DomainsTable>): Promise<Domain> {
  return db.insertInto('domains').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The live domain holding each of these names, whoever's it is. */
export function findLiveNames(db: Db, names: string[]): Promise<Pick<Domain, 'name' | 'account_id'>[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db.selectFrom('domains').select(['name', 'account_id']).where('name', 'in', names).where('status', '<>', 'cancelled').execute();
}

const withPrice = (db: Db) => db.selectFrom('domains')
  .innerJoin('tld_prices', 'tld_prices.tld', 'domains.tld')
  .selectAll('domains')
  .select(sql<TldPrice>`to_jsonb(tld_prices)`.as('price'));

export function findAccountDomain(db: Db, accountId: string, id: string): Promise<DomainRow | undefined> {
  return withPrice(db).where('domains.id', '=', id).where('domains.account_id', '=', accountId).executeTakeFirst();
}

export function findDomainById(db: Db, id: string): Promise<DomainRow | undefined> {
  return withPrice(db).where('domains.id', '=', id).executeTakeFirst();
}

/** The account's live domain of this name. */
export function findAccountLiveDomainByName(db: Db, accountId: string, name: string): Promise<DomainRow | undefined> {
  return withPrice(db).where('domains.name', '=', name).where('domains.account_id', '=', accountId).where('domains.status', '<>', 'cancelled').executeTakeFirst();
}

/** The account's domain, locked for the rest of the transaction (state checks that lead to a write). */
export function lockAccountDomain(db: Db, accountId: string, id: string): Promise<Domain | undefined> {
  return db.selectFrom('domains').selectAll().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
}

export async function listDomainsPage(
  db: Db, accountId: string, status: DomainStatus | undefined, limit: number, offset: number,
): Promise<{ rows: DomainRow[]; total: number }> {
  let q = db.selectFrom('domains').where('domains.account_id', '=', accountId);
  if (status) q = q.where('domains.status', '=', status);
  const [rows, count] = await Promise.all([
    q.innerJoin('tld_prices', 'tld_prices.tld', 'domains.tld').selectAll('domains').select(sql<TldPrice>`to_jsonb(tld_prices)`.as('price'))
      .orderBy('domains.created_at', 'desc').orderBy('domains.id', 'desc').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export type DomainPatch = Partial<Pick<Domain,
  'status' | 'nameservers' | 'transfer_lock' | 'whois_privacy' | 'auth_code' | 'provider_ref' | 'registered_at' | 'expires_at'>>;

export function updateDomain(db: Db, id: string, patch: DomainPatch): Promise<Domain | undefined> {
  return db.updateTable('domains').set({ ...patch, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}

/** pending/transfer_pending → active with what the registry reported; false when it no longer waits. */
export async function activateDomain(db: Db, id: string, from: DomainStatus, patch: DomainPatch): Promise<boolean> {
  const res = await db.updateTable('domains').set({ ...patch, status: 'active', updated_at: new Date() })
    .where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** A registration or transfer that finally failed: the name is freed. False when it was not waiting. */
export async function cancelWaitingDomain(db: Db, id: string, from: DomainStatus): Promise<boolean> {
  const res = await db.updateTable('domains').set({ status: 'cancelled', updated_at: new Date() })
    .where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Drops what a domain operation carried for the registrar only — the transfer's auth code, the
 * registrant's contact — once the operation has ended (finishOperation keeps other params).
 */
export async function forgetOperationSecrets(trx: Db, operationId: string): Promise<void> {
  await trx.updateTable('operations').set({ params: sql`params - 'auth_code' - 'contact'` }).where('id', '=', operationId).execute();
}
