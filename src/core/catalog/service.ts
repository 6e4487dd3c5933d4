// Catalog rows as the operator manages them: every row, any flag. Rows are returned as stored;
// each adapter shapes them. What a customer's list shows is decided in customer-lists.ts.
import type { Insertable, Selectable, Updateable } from 'kysely';
import {
  type CatalogTable, findCatalogRow, findTldPrice, insertCatalogRow, insertTldPrice,
  listCatalogPage, listTldPricesPage, updateCatalogRow, updateTldPrice,
} from '../../db/queries/catalog.ts';
import type { DB, TldPrice } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { constraintError } from './constraints.ts';
import { checkCatalogValues } from './rules.ts';

export type { CatalogTable };

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

/** Every row of a table, available or not (the operator's view). */
export async function listCatalog<T extends CatalogTable>(db: Db, table: T, page: PageRequest): Promise<Paged<Selectable<DB[T]>>> {
  const { rows, total } = await listCatalogPage(db, table, {}, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getCatalogRow<T extends CatalogTable>(db: Db, table: T, id: number): Promise<Selectable<DB[T]>> {
  const row = await findCatalogRow(db, table, id);
  if (!row) throw notFound(LABEL[table]);
  return row;
}

export async function createCatalogRow<T extends CatalogTable>(db: Db, table: T, values: Insertable<DB[T]>): Promise<Selectable<DB[T]>> {
  const checked = checkCatalogValues(values);
  try {
    return await inTransaction(db, async (trx) => {
      const row = await insertCatalogRow(trx, table, checked);
      setCompanionTarget(table.replace(/s$/, ''), (row as { id: number }).id);
      return row;
    });
  } catch (e) {
    constraintError(e, table, LABEL[table]);
  }
}

export async function patchCatalogRow<T extends CatalogTable>(db: Db, table: T, id: number, patch: Updateable<DB[T]>): Promise<Selectable<DB[T]>> {
  if (Object.keys(patch).length === 0) return getCatalogRow(db, table, id);
  const checked = checkCatalogValues(patch);
  try {
    return await inTransaction(db, async (trx) => {
      const row = await updateCatalogRow(trx, table, id, checked);
      if (!row) throw notFound(LABEL[table]);
      return row;
    });
  } catch (e) {
    constraintError(e, table, LABEL[table]);
  }
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
  const checked = checkCatalogValues({ ...values, tld: normaliseTld(values.tld) });
  try {
    return await inTransaction(db, async (trx) => {
      const row = await insertTldPrice(trx, checked);
      setCompanionTarget('tld_price', row.tld.replace(/^\./, ''));
      return row;
    });
  } catch (e) {
    constraintError(e, 'tld_prices', 'TLD price');
  }
}

export async function patchTldPrice(db: Db, tld: string, patch: Updateable<DB['tld_prices']>): Promise<TldPrice> {
  if (Object.keys(patch).length === 0) return getTldPrice(db, tld);
  // A rename is spelled like a new TLD ("Shop" → ".shop"), or it would miss the CHECK or a lookup.
  const checked = checkCatalogValues(patch.tld === undefined ? patch : { ...patch, tld: normaliseTld(String(patch.tld)) });
  let row: TldPrice;
  try {
    row = await inTransaction(db, async (trx) => {
      const updated = await updateTldPrice(trx, normaliseTld(tld), checked);
      if (!updated) throw notFound('TLD');
      return updated;
    });
  } catch (e) {
    constraintError(e, 'tld_prices', 'TLD price');
  }
  return row;
}
