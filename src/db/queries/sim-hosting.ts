// The simulated hosting panel's world (sim_hosting_*): its servers, the accounts on them and the
// SSO sessions it hands out. Only the simulated driver (src/providers/hosting/simulated) uses these.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { SimHostingAccount, SimHostingServer, SimPanelAccountState } from '../schema.ts';

export interface PanelServerUsage extends SimHostingServer {
  accounts: number;
}

/** Every server with the accounts it holds (terminated ones freed their place), by id. */
export function listPanelServerUsage(db: Db): Promise<PanelServerUsage[]> {
  return db.selectFrom('sim_hosting_servers as s')
    .selectAll('s')
    .select((eb) => eb.selectFrom('sim_hosting_accounts as a')
      .select(sql<number>`count(*)::int`.as('n'))
      .whereRef('a.server_id', '=', 's.id').where('a.state', '<>', 'terminated')
      .as('accounts'))
    .orderBy('s.id')
    .execute() as Promise<PanelServerUsage[]>;
}

/**
 * Locks every panel server, in id order (so two callers never deadlock), for the rest of the
 * transaction: placing an account reads the usage of all of them and must not race another placement.
 */
export async function lockPanelServers(db: Db): Promise<void> {
  await db.selectFrom('sim_hosting_servers').select('id').orderBy('id').forUpdate().execute();
}

export function findPanelAccountByToken(db: Db, token: string): Promise<SimHostingAccount | undefined> {
  return db.selectFrom('sim_hosting_accounts').selectAll().where('request_token', '=', token).executeTakeFirst();
}

export function findPanelAccount(db: Db, id: string): Promise<SimHostingAccount | undefined> {
  return db.selectFrom('sim_hosting_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether a live account of the panel already serves `domain`. */
export async function panelDomainTaken(db: Db, domain: string): Promise<boolean> {
  const row = await db.selectFrom('sim_hosting_accounts').select('id').where('domain', '=', domain).where('state', '<>', 'terminated').executeTakeFirst();
  return row !== undefined;
}

/** Usernames of live accounts on a server that start with `prefix` (the candidates a derivation may collide with). */
export async function usernamesOnServer(db: Db, serverId: number, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('sim_hosting_accounts').select('username')
    .where('server_id', '=', serverId).where('state', '<>', 'terminated')
    .where('username', 'like', `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    .execute();
  return rows.map((r) => r.username);
}

export function insertPanelAccount(db: Db, row: {
  id: string; request_token: string; server_id: number; username: string; domain: string;
  package_name: string; quota_mb: number; max_domains: number; contact_email: string;
}): Promise<SimHostingAccount> {
  return db.insertInto('sim_hosting_accounts').values({ ...row, state: 'creating' }).returningAll().executeTakeFirstOrThrow();
}

/** Moves an account from one state to another; false when it was not in `from`. */
export async function setPanelAccountState(db: Db, id: string, from: SimPanelAccountState[], to: SimPanelAccountState, reason: string | null = null): Promise<boolean> {
  const r = await db.updateTable('sim_hosting_accounts')
    .set({ state: to, suspend_reason: to === 'suspended' ? reason : null, updated_at: sql<Date>`now()`, ...(to === 'terminated' ? { terminated_at: sql<Date>`now()` } : {}) })
    .where('id', '=', id).where('state', 'in', from)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export function findPanelServer(db: Db, id: number): Promise<SimHostingServer | undefined> {
  return db.selectFrom('sim_hosting_servers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSsoSession(db: Db, token: string, accountId: string, ttlSeconds: number): Promise<Date> {
  const row = await db.insertInto('sim_hosting_sso_sessions')
    .values({ token, account_id: accountId, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
    .returning('expires_at').executeTakeFirstOrThrow();
  return row.expires_at;
}

/** The simulated account's databases, by name. */
export async function listSimDatabases(db: Db, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('sim_hosting_databases').select('name').where('account_id', '=', accountId).orderBy('name').execute();
  return rows.map((r) => r.name);
}

/**
 * Adds a database while the account holds fewer than `max` (under a lock on the account, so two
 * creates cannot both take the last place): 'added', 'exists' or 'full'.
 */
export async function insertSimDatabase(db: Db, accountId: string, name: string, max: number): Promise<'added' | 'exists' | 'full'> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('sim_hosting_accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    const names = await listSimDatabases(trx, accountId);
    if (names.includes(name)) return 'exists';
    if (names.length >= max) return 'full';
    await trx.insertInto('sim_hosting_databases').values({ account_id: accountId, name }).execute();
    return 'added';
  });
}

export async function deleteSimDatabase(db: Db, accountId: string, name: string): Promise<void> {
  await db.deleteFrom('sim_hosting_databases').where('account_id', '=', accountId).where('name', '=', name).execute();
}
