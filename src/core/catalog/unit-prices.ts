// Per-unit monthly prices of custom-mode servers and add-ons. The units are fixed by the product
// (pricing a server reads each of them), so the operator sets prices but never adds a unit.
import { findUnitPrice, listUnitPricesPage, upsertUnitPrice } from '../../db/queries/catalog.ts';
import type { UnitPrice } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import type { Cents } from '../money.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { constraintError } from './constraints.ts';
import { checkCatalogValues } from './rules.ts';

export const UNITS = ['cpu_core', 'ram_gb', 'disk_gb', 'ipv4', 'ipv6', 'snapshot'] as const;
export type Unit = (typeof UNITS)[number];

export function isUnit(text: string): text is Unit {
  return (UNITS as readonly string[]).includes(text);
}

export async function listUnitPrices(db: Db, page: PageRequest): Promise<Paged<UnitPrice>> {
  const { rows, total } = await listUnitPricesPage(db, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function getUnitPrice(db: Db, unit: string): Promise<UnitPrice> {
  const row = isUnit(unit) ? await findUnitPrice(db, unit) : undefined;
  if (!row) throw notFound('Unit price');
  return row;
}

/** Sets the price of a known unit (adding its row if the catalog lacks it). */
export async function setUnitPrice(db: Db, unit: string, cents: Cents): Promise<UnitPrice> {
  if (!isUnit(unit)) throw notFound('Unit price');
  const { price_cents } = checkCatalogValues({ price_cents: cents });
  try {
    return await inTransaction(db, (trx) => upsertUnitPrice(trx, unit, price_cents));
  } catch (e) {
    constraintError(e, 'unit_prices', 'unit price');
  }
}
