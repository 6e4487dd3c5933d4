// Catalog rows as v1 shapes them: prices as numbers, packages with the reseller's price, OS
// versions grouped under their family, locations with a status.
import type {
  ColocationPackage, DedicatedPackage, EmailPackage, IpSubnetPackage, OsFamily,
} from '../../../core/catalog/customer-lists.ts';
import { discountOf, percentOf } from '../../../core/reseller/discount.ts';
import type { HostingPackage, Location, Plan } from '../../../db/schema.ts';
import { v1money as v1Amount } from '../reply.ts';

/** What a reseller pays: null for an account that is not one (docs/behaviour.md, "Tickets, sub-users, SSH keys, reseller"). */
export interface ResellerPricing {
  isReseller: boolean;
  /** The current tier's discount in basis points (0 without a tier). */
  discountBp: number;
}

export function v1Package(p: Plan, r: ResellerPricing) {
  return {
    id: p.id,
    name: p.name,
    cpu_cores: p.cpu_cores,
    ram_mb: p.ram_mb,
    storage_gb: p.storage_gb,
    bandwidth_gb: p.bandwidth_gb,
    monthly_price: v1Amount(p.price_cents),
    // The same rounding as every server charge (core/reseller/discount.ts): the discount rounded down.
    reseller_monthly_price: r.isReseller ? v1Amount(p.price_cents - discountOf(p.price_cents, r.discountBp)) : null,
    reseller_discount_percentage: r.isReseller ? percentOf(r.discountBp) : null,
  };
}

export function v1OperatingSystem(f: OsFamily) {
  return { id: f.id, name: f.name, versions: f.versions.map((v) => ({ id: v.id, name: v.version })) };
}

/** Only available locations are listed, so each is `active`. */
export function v1Location(l: Location) {
  return { id: l.id, name: l.name, code: l.code, status: l.available ? 'active' as const : 'inactive' as const };
}

export function v1EmailPackage(p: EmailPackage) {
  return { id: p.id, name: p.name, disk_quota_mb: p.disk_quota_mb, max_accounts: p.max_accounts, monthly_price: v1Amount(p.monthly_price_cents) };
}

export function v1WebHostingPackage(p: HostingPackage) {
  return { id: p.id, name: p.name, disk_quota_mb: p.disk_quota_mb, max_domains: p.max_domains, monthly_price: v1Amount(p.monthly_price_cents) };
}

export function v1ColocationPackage(p: ColocationPackage) {
  return { id: p.id, name: p.name, type: p.type, monthly_price: v1Amount(p.monthly_price_cents) };
}

export function v1DedicatedPackage(p: DedicatedPackage) {
  return { id: p.id, name: p.name, cpu_cores: p.cpu_cores, ram_gb: p.ram_gb, storage_gb: p.storage_gb, monthly_price: v1Amount(p.monthly_price_cents) };
}

export function v1IpSubnetPackage(p: IpSubnetPackage) {
  return { id: p.id, name: p.name, subnet_size: p.subnet_size, monthly_price: v1Amount(p.monthly_price_cents) };
}
