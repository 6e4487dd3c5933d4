// Web-hosting accounts (web_hosting) and their control-panel login links (hosting_login_links).
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { HostingPageAccess, WebHosting, WebHostingStatus, WebHostingTable } from '../schema.ts';

/** A hosting account with the name and quota of its package (what every answer shows). */
export interface WebHostingRow extends WebHosting {
  package_name: string;
  quota_mb: number;
  max_domains: number;
}

export function insertWebHosting(db: Db, row: Insertable<WebHostingTable>): Promise<WebHosting> {
  return db.insertInto('web_hosting').values(row).returningAll().executeTakeFirstOrThrow();
}

const withPackage = (db: Db) => db.selectFrom('web_hosting')
  .innerJoin('hosting_packages', 'hosting_packages.id', 'web_hosting.package_id')
  .selectAll('web_hosting')
  .select(['hosting_packages.name as package_name', 'hosting_packages.disk_quota_mb as quota_mb', 'hosting_packages.max_domains']);

/** The account's hosting account with its package; another account's id is not found. */
export function findAccountWebHosting(db: Db, accountId: string, id: string): Promise<WebHostingRow | undefined> {
  return withPackage(db).where('web_hosting.id', '=', id).where('web_hosting.account_id', '=', accountId).executeTakeFirst();
}

/** The same, locked for the rest of the transaction (state checks that lead to a write). */
export function lockAccountWebHosting(db: Db, accountId: string, id: string): Promise<WebHosting | undefined> {
  return db.selectFrom('web_hosting').selectAll().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
}

export function findWebHostingById(db: Db, id: string): Promise<WebHostingRow | undefined> {
  return withPackage(db).where('web_hosting.id', '=', id).executeTakeFirst();
}

/** A live (not cancelled) hosting account of any customer for `domain`. */
export function findLiveWebHostingByDomain(db: Db, domain: string): Promise<Pick<WebHosting, 'id' | 'account_id'> | undefined> {
  return db.selectFrom('web_hosting').select(['id', 'account_id']).where('domain', '=', domain).where('status', '<>', 'cancelled').executeTakeFirst();
}

/** One page, newest first, and the total (the page's ids from the (account, newest) index alone). */
export async function listWebHostingPage(
  db: Db, accountId: string, status: WebHostingStatus | undefined, limit: number, offset: number,
): Promise<{ rows: WebHostingRow[]; total: number }> {
  let mine = db.selectFrom('web_hosting').where('web_hosting.account_id', '=', accountId);
  if (status) mine = mine.where('web_hosting.status', '=', status);
  const rows = await db
    .with('page', () => mine.select(['web_hosting.id']).orderBy('web_hosting.created_at', 'desc').orderBy('web_hosting.id', 'desc').limit(limit).offset(offset))
    .selectFrom('page')
    .innerJoin('web_hosting', 'web_hosting.id', 'page.id')
    .innerJoin('hosting_packages', 'hosting_packages.id', 'web_hosting.package_id')
    .selectAll('web_hosting')
    .select(['hosting_packages.name as package_name', 'hosting_packages.disk_quota_mb as quota_mb', 'hosting_packages.max_domains'])
    .select(() => mine.select(sql<number>`count(*)::int`.as('n')).as('total'))
    .orderBy('web_hosting.created_at', 'desc').orderBy('web_hosting.id', 'desc')
    .execute();
  if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]!.total ?? 0 };
  const count = await mine.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows: [], total: count.n };
}

/** pending → active once the panel reports the account; false if it is no longer pending. */
export async function markWebHostingProvisioned(db: Db, id: string, f: { panelRef: string; username: string; serverHostname: string }): Promise<boolean> {
  const r = await db.updateTable('web_hosting')
    .set({ status: 'active', panel_ref: f.panelRef, username: f.username, server_hostname: f.serverHostname, updated_at: sql<Date>`now()` })
    .where('id', '=', id).where('status', '=', 'pending')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export function updateWebHosting(db: Db, id: string, patch: Partial<{
  status: WebHostingStatus; next_billing_at: Date; last_charge_cents: number; cancel_reason: string | null; cancelled_at: Date;
}>): Promise<WebHosting> {
  return db.updateTable('web_hosting').set({ ...patch, updated_at: sql<Date>`now()` }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function insertLoginLink(db: Db, ticket: string, hostingId: string, expiresAt: Date, maker: { access: HostingPageAccess; subUserId: number | null }): Promise<void> {
  await db.insertInto('hosting_login_links').values({ ticket, hosting_id: hostingId, expires_at: expiresAt, access: maker.access, sub_user_id: maker.subUserId }).execute();
}

/** Links of a hosting account that can no longer be opened (expired): kept from piling up. */
export async function deleteExpiredLoginLinks(db: Db, hostingId: string): Promise<void> {
  await db.deleteFrom('hosting_login_links').where('hosting_id', '=', hostingId).where('expires_at', '<', sql<Date>`now()`).execute();
}

export interface SpentLoginLink {
  hosting_id: string;
  access: HostingPageAccess;
  sub_user_id: number | null;
}

/** Spends a link: its hosting account and maker the first time within its lifetime, undefined afterwards. One UPDATE, so two openers cannot both win. */
export async function spendLoginLink(db: Db, ticket: string): Promise<SpentLoginLink | undefined> {
  return db.updateTable('hosting_login_links').set({ used_at: sql<Date>`now()` })
    .where('ticket', '=', ticket).where('used_at', 'is', null).where(sql<boolean>`expires_at > now()`)
    .returning(['hosting_id', 'access', 'sub_user_id']).executeTakeFirst();
}

/** The hosting account of a link that can still be opened (unused, unexpired), without spending it. */
export async function findOpenLoginLink(db: Db, ticket: string): Promise<string | undefined> {
  const row = await db.selectFrom('hosting_login_links').select('hosting_id')
    .where('ticket', '=', ticket).where('used_at', 'is', null).where(sql<boolean>`expires_at > now()`)
    .executeTakeFirst();
  return row?.hosting_id;
}
