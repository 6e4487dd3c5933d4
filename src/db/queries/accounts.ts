import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import { precompile } from '../precompiled.ts';
import type { Account, AccountUpdate, NewAccount } from '../schema.ts';

export function insertAccount(db: Db, row: NewAccount): Promise<Account> {
  return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findAccount(db: Db, id: string): Promise<Account | undefined> {
  return accountById.executeTakeFirst(db, { id });
}

// Precompiled: GET /v2/billing/balance and much else read it (see precompiled.ts).
const accountById = precompile((db: Db, p: { id: string }) => db.selectFrom('accounts').selectAll().where('id', '=', p.id));

/** The account with this email, compared as the unique index does (case-insensitively). */
export function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where(sql`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function updateAccountRow(db: Db, id: string, patch: AccountUpdate): Promise<Account | undefined> {
  return db.updateTable('accounts').set({ ...patch, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}

export interface AccountFilter {
  /** Part of the email, any case. */
  email?: string;
  /** Part of the email or name (any case), or the id's beginning. */
  q?: string;
  status?: Account['status'];
}

/** A page of accounts, newest first, with the total of the filter in the same round trip. */
export async function listAccountsPage(db: Db, filter: AccountFilter, limit: number, offset: number): Promise<{ rows: Account[]; total: number }> {
  let q = db.selectFrom('accounts');
  // LIKE's own wildcards in the search text are matched literally.
  if (filter.email) q = q.where('email', 'ilike', `%${filter.email.replace(/[\\%_]/g, '\\$&')}%`);
  if (filter.q) {
    const like = filter.q.replace(/[\\%_]/g, '\\$&');
    q = q.where((eb) => eb.or([eb('email', 'ilike', `%${like}%`), eb('name', 'ilike', `%${like}%`), eb('id', 'like', `${like}%`)]));
  }
  if (filter.status) q = q.where('status', '=', filter.status);
  const rows = await q.selectAll()
    .select(sql<number>`count(*) OVER ()`.as('full_count'))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  if (rows.length === 0 && offset > 0) {
    // Past the end: the window count has no row to ride on.
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows: [], total: Number(c.n) };
  }
  return { rows: rows.map(({ full_count: _n, ...a }) => a), total: Number(rows[0]?.full_count ?? 0) };
}
