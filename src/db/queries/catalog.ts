// Catalog tables share one shape of access: paged reads, lookup by key, insert, patch.
import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../connection.ts';
import type { DB } from '../schema.ts';
import { takeTurn } from '../take-turn.ts';
import { inTransaction } from '../transaction.ts';

/** Catalog tables keyed by a serial `id`. */
export type CatalogTable =
  | 'plans' | 'locations' | 'operating_systems' | 'hosting_packages' | 'departments' | 'reseller_tiers'
  | 'email_packages' | 'colocation_packages' | 'dedicated_packages' | 'ip_subnet_packages';

export interface CatalogFilter {
  /** Only rows whose `available`/`active` flag is true. */
  onlyAvailable?: boolean;
  provider?: string;
}

const FLAG: Partial<Record<CatalogTable, 'available' | 'active'>> = {
  plans: 'available',
  locations: 'available',
  operating_systems: 'available',
  hosting_packages: 'active',
  departments: 'active',
};

const ORDER: Partial<Record<CatalogTable, string>> = { reseller_tiers: 'min_servers' };

export async function listCatalogPage<T extends CatalogTable>(
  db: Db,
  table: T,
  filter: CatalogFilter,
  limit: number,
  offset: number,
): Promise<{ rows: Selectable<DB[T]>[]; total: number }> {
  // The generic table parameter defeats Kysely's column inference; the column names are checked
  // against FLAG/ORDER above, which are typed.
  let q = db.selectFrom(table as 'plans');
  const flag = FLAG[table];
  if (filter.onlyAvailable && flag) q = q.where(flag as 'available', '=', true);
  if (filter.provider && table === 'locations') q = q.where('provider' as 'name', '=', filter.provider);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy((ORDER[table] ?? 'id') as 'id').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as unknown as Selectable<DB[T]>[], total: Number(count.n) };
}

export async function findCatalogRow<T extends CatalogTable>(db: Db, table: T, id: number): Promise<Selectable<DB[T]> | undefined> {
  const row = await db.selectFrom(table as 'plans').selectAll().where('id', '=', id).executeTakeFirst();
  return row as unknown as Selectable<DB[T]> | undefined;
}

/**
 * Tables whose rows a constraint checks against each other: reseller tiers may not overlap (an
 * exclusion constraint). Left to the constraint alone, two overlapping writes at once can each find
 * the other's uncommitted row and wait on it, and PostgreSQL then fails one as a deadlock — "busy" to
 * a caller, where the answer is "overlaps". Their writes take turns under a lock for their
 * transaction instead, so each sees every row written before it and the constraint refuses it.
 */
const WRITES_IN_TURN: ReadonlySet<CatalogTable> = new Set(['reseller_tiers']);

function inTurn<R>(db: Db, table: CatalogTable, write: (db: Db) => Promise<R>): Promise<R> {
  if (!WRITES_IN_TURN.has(table)) return write(db);
  return inTransaction(db, async (trx) => {
    await takeTurn(trx, `catalog:${table}`);
    return write(trx);
  });
}

export async function insertCatalogRow<T extends CatalogTable>(db: Db, table: T, values: Insertable<DB[T]>): Promise<Selectable<DB[T]>> {
  const row = await inTurn(db, table, (d) => d.insertInto(table as 'plans').values(values as never).returningAll().executeTakeFirstOrThrow());
  return row as unknown as Selectable<DB[T]>;
}

export async function updateCatalogRow<T extends CatalogTable>(
  db: Db,
  table: T,
  id: number,
  patch: Updateable<DB[T]>,
): Promise<Selectable<DB[T]> | undefined> {
  const row = await inTurn(db, table, (d) => d.updateTable(table as 'plans').set(patch as never).where('id', '=', id).returningAll().executeTakeFirst());
  return row as unknown as Selectable<DB[T]> | undefined;
}

export function listTldPricesPage(db: Db, limit: number, offset: number) {
  const q = db.selectFrom('tld_prices');
  return Promise.all([
    q.selectAll().orderBy('tld').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]).then(([rows, c]) => ({ rows, total: Number(c.n) }));
}

export function findTldPrice(db: Db, tld: string) {
  return db.selectFrom('tld_prices').selectAll().where('tld', '=', tld).executeTakeFirst();
}

/** The price-list rows of these TLDs (with their dot), those that exist. */
export function findTldPrices(db: Db, tlds: string[]) {
  if (tlds.length === 0) return Promise.resolve([]);
  return db.selectFrom('tld_prices').selectAll().where('tld', 'in', tlds).execute();
}

export function insertTldPrice(db: Db, values: Insertable<DB['tld_prices']>) {
  return db.insertInto('tld_prices').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateTldPrice(db: Db, tld: string, patch: Updateable<DB['tld_prices']>) {
  return db.updateTable('tld_prices').set(patch).where('tld', '=', tld).returningAll().executeTakeFirst();
}

export function listUnitPricesPage(db: Db, limit: number, offset: number) {
  const q = db.selectFrom('unit_prices');
  return Promise.all([
    q.selectAll().orderBy('unit').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]).then(([rows, c]) => ({ rows, total: Number(c.n) }));
}

export function findUnitPrice(db: Db, unit: string) {
  return db.selectFrom('unit_prices').selectAll().where('unit', '=', unit).executeTakeFirst();
}

export function upsertUnitPrice(db: Db, unit: string, priceCents: number) {
  return db.insertInto('unit_prices').values({ unit, price_cents: priceCents })
    .onConflict((oc) => oc.column('unit').doUpdateSet({ price_cents: priceCents }))
    .returningAll().executeTakeFirstOrThrow();
}

export function findUnitPrices(db: Db, units: string[]) {
  return db.selectFrom('unit_prices').selectAll().where('unit', 'in', units).execute();
}

/**
 * The id of the location whose name or code is `text`, ignoring case (v1 names the location of a
 * new VM by `location_name`); undefined when none is.
 */
export async function findLocationIdByName(db: Db, text: string): Promise<number | undefined> {
  const wanted = text.trim().toLowerCase();
  const row = await db.selectFrom('locations').select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['name']), '=', wanted), eb(eb.fn('lower', ['code']), '=', wanted)]))
    .orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}

/** Every available OS version, in id order (few rows: the catalog of images). */
export function listAvailableOperatingSystems(db: Db) {
  return db.selectFrom('operating_systems').selectAll().where('available', '=', true).orderBy('id').limit(1000).execute();
}
