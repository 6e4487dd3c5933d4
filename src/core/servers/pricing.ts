// Monthly prices of servers: a plan's price, or the per-unit catalog prices for a custom size;
// extra addresses beyond the first of each family at the ipv4/ipv6 unit prices.
import { findUnitPrice, findUnitPrices } from '../../db/queries/catalog.ts';
import type { Unit } from '../catalog/unit-prices.ts';
import type { Cents } from '../money.ts';
import type { Db } from '../types.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';

export async function unitPrice(db: Db, unit: Unit): Promise<Cents> {
  // A unit the operator never priced is free rather than unsellable; the seed prices them all.
  return (await findUnitPrice(db, unit))?.price_cents ?? 0;
}

/** Several units' prices in one query. */
async function unitPricesOf<U extends Unit>(db: Db, units: U[]): Promise<Record<U, Cents>> {
  return pricesOf(units, await findUnitPrices(db, units));
}

/** The units customPriceAt needs. */
export const CUSTOM_UNITS = ['cpu_core', 'ram_gb', 'disk_gb'] as const satisfies Unit[];
/** The units extraIpsPriceAt needs. */
export const IP_UNITS = ['ipv4', 'ipv6'] as const satisfies Unit[];

/** Prices of units as read (unit_prices rows); a unit missing is free (see unitPrice). */
export function pricesOf<U extends Unit>(units: readonly U[], rows: readonly { unit: string; price_cents: number }[]): Record<U, Cents> {
  return Object.fromEntries(units.map((u) => [u, rows.find((r) => r.unit === u)?.price_cents ?? 0])) as Record<U, Cents>;
}

export function customPriceAt(spec: MachineSpec, p: Record<(typeof CUSTOM_UNITS)[number], Cents>): Cents {
  // RAM of an old plan or snapshot may not be whole GB: a part GB is charged up to the next cent.
  return spec.cpuCores * p.cpu_core + Math.ceil((spec.ramMb * p.ram_gb) / 1024) + spec.storageGb * p.disk_gb;
}

export async function customPrice(db: Db, spec: MachineSpec): Promise<Cents> {
  return customPriceAt(spec, await unitPricesOf(db, [...CUSTOM_UNITS]));
}

export function extraIpsPriceAt(extraIpv4: number, extraIpv6: number, p: Record<(typeof IP_UNITS)[number], Cents>): { ipv4: Cents; ipv6: Cents; total: Cents } {
  return { ipv4: p.ipv4, ipv6: p.ipv6, total: extraIpv4 * p.ipv4 + extraIpv6 * p.ipv6 };
}

/** The ipv4 and ipv6 unit prices, in one query. */
export function ipUnitPrices(db: Db): Promise<Record<(typeof IP_UNITS)[number], Cents>> {
  return unitPricesOf(db, [...IP_UNITS]);
}
