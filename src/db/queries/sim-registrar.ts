// The simulated registrar's registry (sim_registry_*): the names it holds, ours ('us') and other
// registrars' (seeded by the operator), and transfers in. Finished requests of other kinds are
// recorded in sim_requests (sim.ts), like the compute provider's.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { SimRegistryDomain, SimRegistryTransfer } from '../schema.ts';

/** The sponsor of names registered through this installation. */
export const US = 'us';

export function findRegistryDomain(db: Db, name: string): Promise<SimRegistryDomain | undefined> {
  return db.selectFrom('sim_registry_domains').selectAll().where('name', '=', name).executeTakeFirst();
}

export function lockRegistryDomain(trx: Db, name: string): Promise<SimRegistryDomain | undefined> {
  return trx.selectFrom('sim_registry_domains').selectAll().where('name', '=', name).forUpdate().executeTakeFirst();
}

export function findRegistryDomainCreatedBy(db: Db, token: string): Promise<SimRegistryDomain | undefined> {
  return db.selectFrom('sim_registry_domains').selectAll().where('created_by', '=', token).executeTakeFirst();
}

export interface NewRegistryDomain {
  name: string;
  sponsor: string;
  roid: string;
  auth_code: string;
  nameservers: string[];
  transfer_lock: boolean;
  whois_privacy: boolean;
  created_by: string | null;
  /** Years from now (the database's clock); or an explicit expiry. */
  years?: number;
  expires_at?: Date;
}

/** Creates the name unless the registry already holds it (then undefined). */
export function insertRegistryDomain(db: Db, row: NewRegistryDomain): Promise<SimRegistryDomain | undefined> {
  const { years, expires_at, ...values } = row;
  return db.insertInto('sim_registry_domains')
    .values({ ...values, expires_at: expires_at ?? sql<Date>`date_trunc('second', now()) + make_interval(years => ${years ?? 1})` })
    .onConflict((oc) => oc.doNothing())
    .returningAll().executeTakeFirst();
}

export type RegistryPatch = Partial<Pick<SimRegistryDomain, 'nameservers' | 'transfer_lock' | 'whois_privacy' | 'auth_code'>>;

export function updateRegistryDomain(db: Db, name: string, patch: RegistryPatch): Promise<SimRegistryDomain | undefined> {
  return db.updateTable('sim_registry_domains').set({ ...patch, updated_at: sql<Date>`now()` }).where('name', '=', name).returningAll().executeTakeFirst();
}

/** Adds `years` to the expiry of a name (one statement, under the caller's row lock). */
export function extendRegistryDomain(db: Db, name: string, years: number): Promise<SimRegistryDomain> {
  return db.updateTable('sim_registry_domains')
    .set({ expires_at: sql<Date>`expires_at + make_interval(years => ${years})`, updated_at: sql<Date>`now()` })
    .where('name', '=', name).returningAll().executeTakeFirstOrThrow();
}

/** Whether adding `years` takes the name more than 10 years ahead of now, the registries' limit (database clock). */
export async function renewalTooFar(db: Db, name: string, years: number): Promise<boolean> {
  const row = await db.selectFrom('sim_registry_domains')
    .select(sql<boolean>`expires_at + make_interval(years => ${years}) > now() + interval '10 years'`.as('far'))
    .where('name', '=', name).executeTakeFirstOrThrow();
  return row.far;
}

/** The name now sponsored by us: expiry moved by `years`, a new auth code, locked against transfer out. */
export function takeOverRegistryDomain(db: Db, name: string, years: number, authCode: string): Promise<SimRegistryDomain> {
  return db.updateTable('sim_registry_domains')
    .set({
      sponsor: US, auth_code: authCode, transfer_lock: true,
      expires_at: sql<Date>`expires_at + make_interval(years => ${years})`, updated_at: sql<Date>`now()`,
    })
    .where('name', '=', name).returningAll().executeTakeFirstOrThrow();
}

export function listRegistryPage(db: Db, sponsor: string | undefined, limit: number, offset: number): Promise<{ rows: SimRegistryDomain[]; total: number }> {
  let q = db.selectFrom('sim_registry_domains');
  if (sponsor === US) q = q.where('sponsor', '=', US);
  else if (sponsor !== undefined) q = q.where('sponsor', '<>', US);
  return Promise.all([
    q.selectAll().orderBy('name').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]).then(([rows, c]) => ({ rows, total: Number(c.n) }));
}

// --- transfers -------------------------------------------------------------------------------

export function findTransferByToken(db: Db, token: string): Promise<SimRegistryTransfer | undefined> {
  return db.selectFrom('sim_registry_transfers').selectAll().where('token', '=', token).executeTakeFirst();
}

export function lockTransferByToken(trx: Db, token: string): Promise<SimRegistryTransfer | undefined> {
  return trx.selectFrom('sim_registry_transfers').selectAll().where('token', '=', token).forUpdate().executeTakeFirst();
}

export function findPendingTransfer(db: Db, name: string): Promise<SimRegistryTransfer | undefined> {
  return db.selectFrom('sim_registry_transfers').selectAll().where('name', '=', name).where('state', '=', 'pending').executeTakeFirst();
}

/** Records a transfer request the losing registrar approves `approveAfterMs` from now (database clock). */
export function insertTransfer(trx: Db, row: { token: string; name: string; years: number; from_sponsor: string }, approveAfterMs: number): Promise<SimRegistryTransfer> {
  return trx.insertInto('sim_registry_transfers')
    .values({ ...row, approve_at: sql<Date>`now() + make_interval(secs => ${approveAfterMs / 1000})` })
    .returningAll().executeTakeFirstOrThrow();
}

/** Whether the losing registrar's approval time has come (database clock). */
export async function isApprovalDue(trx: Db, id: number): Promise<boolean> {
  const row = await trx.selectFrom('sim_registry_transfers').select(sql<boolean>`approve_at <= now()`.as('due')).where('id', '=', id).executeTakeFirstOrThrow();
  return row.due;
}

export function finishTransfer(trx: Db, id: number, state: 'completed' | 'rejected', reason: string | null): Promise<SimRegistryTransfer> {
  return trx.updateTable('sim_registry_transfers').set({ state, reason, finished_at: sql<Date>`now()` })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function countTransfers(db: Db, name: string): Promise<number> {
  const r = await db.selectFrom('sim_registry_transfers').select((eb) => eb.fn.countAll<string>().as('n')).where('name', '=', name).executeTakeFirstOrThrow();
  return Number(r.n);
}
