// Monthly prices of servers: a plan's price, or the per-unit catalog prices for a custom size;
// extra addresses beyond the first of each family at the ipv4/ipv6 unit prices.
import { findUnitPrice } from '../../db/queries/catalog.ts';
import type { Unit } from '../catalog/unit-prices.ts';
import type { Cents } from '../money.ts';
import type { Db } from '../types.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';

export async function unitPrice(db: Db, unit: Unit): Promise<Cents> {
  // A unit the operator never priced is free rather than unsellable; the seed prices them all.
  return (await findUnitPrice(db, unit))?.price_cents ?? 0;
}

export async function customPrice(db: Db, spec: MachineSpec): Promise<Cents> {
  const [cpu, ram, disk] = await Promise.all([unitPrice(db, 'cpu_core'), unitPrice(db, 'ram_gb'), unitPrice(db, 'disk_gb')]);
  return spec.cpuCores * cpu + (spec.ramMb / 1024) * ram + spec.storageGb * disk;
}

export async function extraIpsPrice(db: Db, extraIpv4: number, extraIpv6: number): Promise<{ ipv4: Cents; ipv6: Cents; total: Cents }> {
  const [ipv4, ipv6] = await Promise.all([unitPrice(db, 'ipv4'), unitPrice(db, 'ipv6')]);
  return { ipv4, ipv6, total: extraIpv4 * ipv4 + extraIpv6 * ipv6 };
}
