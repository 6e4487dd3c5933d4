// Catalog reads for customers and catalog writes for the operator. Rows are returned as stored;
// each adapter shapes them for its API version.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { ApiError, notFound } from '../errors.ts';
import { pgCode } from '../../db/connection.ts';
import {
  type CatalogFilter, type CatalogTable, findCatalogRow, findTldPrice, insertCatalogRow, insertTldPrice,
  listCatalogPage, listTldPricesPage, updateCatalogRow, updateTldPrice,
} from '../../db/queries/catalog.ts';
import type { DB, TldPrice } from '../../db/schema.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';

export type { CatalogTable };

/** The provider name of locations that route to the primary virtualization platform. */
export const PRIMARY_PROVIDER = 'primary';

const LABEL: Record<CatalogTable, string> = {
  plans: 'Plan',
  locations: 'Location',
  operating_systems: 'Operating system',
  hosting_packages: 'Hosting package',
  departments: 'Department',
  reseller_tiers: 'Reseller tier',
  email_packages: 'Email package',
  colocation_packages: 'Colocation package',
  dedicated_packages: 'Dedicated server package',
  ip_subnet_packages: 'IP subnet package',
};

export async function listCatalog<T extends CatalogTable>(db: Db, table: T, filter: CatalogFilter, page: PageRequest): Promise<Paged<Selectable<DB[T]>>> {
  const { rows, total } = await listCatalogPage(db, table, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getCatalogRow<T extends CatalogTable>(db: Db, table: T, id: number): Promise<Selectable<DB[T]>> {
  const row = await findCatalogRow(db, table, id);
  if (!row) throw notFound(LABEL[table]);
  return row;
}

/** A constraint the database refused (duplicate code, max below min…) is the caller's input error. */
function constraintError(e: unknown, table: string): never {
  const code = pgCode(e);
  if (code === '23505') throw new ApiError('VALIDATION_FAILED', `A ${table} row with this key already exists`, [{ field: 'body', code: 'INVALID', message: 'duplicates an existing row' }]);
  if (code === '23514') throw new ApiError('VALIDATION_FAILED', `The ${table} row breaks a catalog rule`, [{ field: 'body', code: 'INVALID', message: 'values are inconsistent (for example a maximum below its minimum)' }]);
  throw e;
}

export async function createCatalogRow<T extends CatalogTable>(db: Db, table: T, values: Insertable<DB[T]>): Promise<Selectable<DB[T]>> {
  try {
    return await insertCatalogRow(db, table, values);
  } catch (e) {
    constraintError(e, LABEL[table]);
  }
}

export async function patchCatalogRow<T extends CatalogTable>(db: Db, table: T, id: number, patch: Updateable<DB[T]>): Promise<Selectable<DB[T]>> {
  if (Object.keys(patch).length === 0) return getCatalogRow(db, table, id);
  let row: Selectable<DB[T]> | undefined;
  try {
    row = await updateCatalogRow(db, table, id, patch);
  } catch (e) {
    constraintError(e, LABEL[table]);
  }
  if (!row) throw notFound(LABEL[table]);
  return row;
}

/** ".COM", "com" and ".com" all name the TLD ".com". */
export function normaliseTld(text: string): string {
  const t = text.trim().toLowerCase();
  return t.startsWith('.') ? t : `.${t}`;
}

export async function listTldPrices(db: Db, page: PageRequest): Promise<Paged<TldPrice>> {
  const { rows, total } = await listTldPricesPage(db, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getTldPrice(db: Db, tld: string): Promise<TldPrice> {
  const row = await findTldPrice(db, normaliseTld(tld));
  if (!row) throw notFound('TLD');
  return row;
}

export async function createTldPrice(db: Db, values: Insertable<DB['tld_prices']>): Promise<TldPrice> {
  try {
    return await insertTldPrice(db, { ...values, tld: normaliseTld(values.tld) });
  } catch (e) {
    constraintError(e, 'TLD price');
  }
}

export async function patchTldPrice(db: Db, tld: string, patch: Updateable<DB['tld_prices']>): Promise<TldPrice> {
  if (Object.keys(patch).length === 0) return getTldPrice(db, tld);
  let row: TldPrice | undefined;
  try {
    row = await updateTldPrice(db, normaliseTld(tld), patch);
  } catch (e) {
    constraintError(e, 'TLD price');
  }
  if (!row) throw notFound('TLD');
  return row;
}
