// Catalog reads for customers and catalog writes for the operator. Rows are returned as stored;
// each adapter shapes them for its API version.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { ApiError, notFound } from '../errors.ts';
import { pgCode, pgConstraint } from '../../db/connection.ts';
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

/**
 * The body field a refused constraint is about. PostgreSQL names single-column constraints
 * `<table>_<column>_key` / `_check`, and money columns are the body field plus `_cents`; those
 * over several columns (the maximum-above-minimum checks) are listed.
 */
const CONSTRAINT_FIELD: Record<string, string> = {
  tld_prices_pkey: 'tld',
  tld_prices_check: 'years_max',
  reseller_tiers_check: 'max_servers',
  operating_systems_family_version_key: 'version',
};

function constraintField(table: string, constraint: string | undefined): string {
  if (!constraint) return 'body';
  const listed = CONSTRAINT_FIELD[constraint];
  if (listed) return listed;
  const m = /^(\w+?)_(key|check)$/.exec(constraint.startsWith(`${table}_`) ? constraint.slice(table.length + 1) : '');
  return m ? m[1]!.replace(/_cents$/, '') : 'body';
}

/** A constraint the database refused (duplicate code, max below min…) is the caller's input error. */
function constraintError(e: unknown, table: string, label: string): never {
  const code = pgCode(e);
  const field = constraintField(table, pgConstraint(e));
  if (code === '23505') throw new ApiError('VALIDATION_FAILED', `A ${label} row with this ${field === 'body' ? 'key' : field} already exists`, [{ field, code: 'INVALID', message: 'duplicates an existing row' }]);
  if (code === '23514') throw new ApiError('VALIDATION_FAILED', `The ${label} row breaks a catalog rule`, [{ field, code: 'INVALID', message: 'is inconsistent with the other values (for example a maximum below its minimum)' }]);
  throw e;
}

export async function createCatalogRow<T extends CatalogTable>(db: Db, table: T, values: Insertable<DB[T]>): Promise<Selectable<DB[T]>> {
  try {
    return await insertCatalogRow(db, table, values);
  } catch (e) {
    constraintError(e, table, LABEL[table]);
  }
}

export async function patchCatalogRow<T extends CatalogTable>(db: Db, table: T, id: number, patch: Updateable<DB[T]>): Promise<Selectable<DB[T]>> {
  if (Object.keys(patch).length === 0) return getCatalogRow(db, table, id);
  let row: Selectable<DB[T]> | undefined;
  try {
    row = await updateCatalogRow(db, table, id, patch);
  } catch (e) {
    constraintError(e, table, LABEL[table]);
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
    constraintError(e, 'tld_prices', 'TLD price');
  }
}

export async function patchTldPrice(db: Db, tld: string, patch: Updateable<DB['tld_prices']>): Promise<TldPrice> {
  if (Object.keys(patch).length === 0) return getTldPrice(db, tld);
  let row: TldPrice | undefined;
  try {
    // A rename is spelled like a new TLD ("Shop" → ".shop"), or it would miss the CHECK or a lookup.
    row = await updateTldPrice(db, normaliseTld(tld), patch.tld === undefined ? patch : { ...patch, tld: normaliseTld(String(patch.tld)) });
  } catch (e) {
    constraintError(e, 'tld_prices', 'TLD price');
  }
  if (!row) throw notFound('TLD');
  return row;
}
