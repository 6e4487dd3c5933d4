// Sessions of the customer's hosting page (hosting_page_sessions): one hosting account each, made
// when a login link is used, found by the hash of the hc_hosting cookie's token.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { HostingPageAccess, HostingPageSession } from '../schema.ts';

export async function insertHostingPageSession(db: Db, row: {
  id: string; public_id: string; hosting_id: string; account_id: string; sub_user_id: number | null; access: HostingPageAccess; created_at: Date; expires_at: Date;
}): Promise<void> {
  await db.insertInto('hosting_page_sessions').values(row).execute();
}

/** Sessions past their end: kept from piling up (each new session sweeps them). */
export async function deleteEndedHostingPageSessions(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('hosting_page_sessions').where('expires_at', '<=', now).execute();
}

export interface HostingPageStanding extends HostingPageSession {
  account_status: string;
  sub_user_status: string | null;
  sub_user_permissions: string[] | null;
  sub_user_deleted: boolean;
}

/** A session with what decides whether it may still act: its account's status and its sub-user's. */
export function findHostingPageStanding(db: Db, id: string): Promise<HostingPageStanding | undefined> {
  return db.selectFrom('hosting_page_sessions as hs')
    .innerJoin('accounts as a', 'a.id', 'hs.account_id')
    .leftJoin('sub_users as s', 's.id', 'hs.sub_user_id')
    .selectAll('hs')
    .select([
      'a.status as account_status',
      's.status as sub_user_status',
      's.permissions as sub_user_permissions',
      sql<boolean>`s.deleted_at IS NOT NULL`.as('sub_user_deleted'),
    ])
    .where('hs.id', '=', id)
    .executeTakeFirst();
}

export async function deleteHostingPageSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('hosting_page_sessions').where('id', '=', id).execute();
}
