// Rows → v2 resources. Only what a customer may see leaves: no hashes, no internal flags.
import { Type } from '@sinclair/typebox';
import { ipVersion } from '../../core/api-keys/ip-allowlist.ts';
import { money } from '../../core/money.ts';
import { timestamp, ts } from '../../core/time.ts';
import type { Account, ApiKey, Department, HostingPackage, Location, OperatingSystem, Plan, Transaction } from '../../db/schema.ts';
import { MoneySchema, NullableTimestamp, Timestamp } from '../schemas.ts';

const Money = Type.Ref(MoneySchema);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AccountSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  company: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  status: Type.String({ enum: ['active', 'suspended', 'closed'] }),
  balance: Money,
  created_at: Timestamp,
}, { title: 'Account' });

export function accountView(a: Account) {
  return {
    id: a.id, email: a.email, name: a.name, company: a.company, phone: a.phone, country: a.country,
    status: a.status, balance: money(a.balance_cents), created_at: ts(a.created_at),
  };
}

export const TransactionSchema = Type.Object({
  id: Type.Integer(),
  type: Type.String({ enum: ['deposit', 'withdraw', 'refund'] }),
  amount: Money,
  description: Type.String(),
  status: Type.String(),
  created_at: Timestamp,
}, { title: 'Transaction' });

export function transactionView(t: Transaction) {
  return { id: t.id, type: t.type, amount: money(t.amount_cents), description: t.description, status: t.status, created_at: ts(t.created_at) };
}

export const ApiKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it; never the key.' }),
  is_test: Type.Boolean(),
  scopes: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null = every scope' }),
  ip_allowlist: Type.Array(Type.String()),
  status: Type.String({ enum: ['active', 'revoked'] }),
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
  created_at: Timestamp,
}, { title: 'ApiKey' });

export function apiKeyView(k: ApiKey) {
  return {
    id: k.id, name: k.name, prefix: k.prefix, is_test: k.is_test, scopes: k.scopes, ip_allowlist: k.ip_allowlist,
    status: k.revoked_at ? 'revoked' : 'active', last_used_at: timestamp(k.last_used_at), revoked_at: timestamp(k.revoked_at),
    created_at: ts(k.created_at),
  };
}

export const IpAllowlistEntrySchema = Type.Object({
  cidr: Type.String({ examples: ['203.0.113.0/24'] }),
  version: Type.Integer({ enum: [4, 6] }),
}, { title: 'IpAllowlistEntry' });

export function allowlistEntryView(entry: string) {
  return { cidr: entry, version: ipVersion(entry) };
}

const Specs = Type.Object({ cpu_cores: Type.Integer(), ram_mb: Type.Integer(), storage_gb: Type.Integer(), bandwidth_gb: Type.Integer() });

export const PlanSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  specs: Specs,
  price: Money,
  available: Type.Boolean(),
}, { title: 'Plan' });

export function planView(p: Plan) {
  return {
    id: p.id, name: p.name,
    specs: { cpu_cores: p.cpu_cores, ram_mb: p.ram_mb, storage_gb: p.storage_gb, bandwidth_gb: p.bandwidth_gb },
    price: money(p.price_cents), available: p.available,
  };
}

export const PackageSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  specs: Type.Object({ cpu_cores: Type.Integer(), ram_mb: Type.Integer(), storage_gb: Type.Integer() }),
  price: Money,
  available: Type.Boolean(),
}, { title: 'Package' });

export function packageView(p: Plan) {
  return {
    id: p.id, name: p.name,
    specs: { cpu_cores: p.cpu_cores, ram_mb: p.ram_mb, storage_gb: p.storage_gb },
    price: money(p.price_cents), available: p.available,
  };
}

export const OperatingSystemSchema = Type.Object({
  id: Type.Integer({ description: 'The os_version_id to pass to POST /servers.' }),
  name: Type.String({ examples: ['Ubuntu 24.04'] }),
  family: Type.String(),
  version: Type.String(),
  slug: Type.String(),
}, { title: 'OperatingSystem' });

export function operatingSystemView(o: OperatingSystem) {
  return { id: o.id, name: `${o.family} ${o.version}`, family: o.family, version: o.version, slug: o.slug };
}

export const LocationSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.String(),
  country: Type.String(),
}, { title: 'Location' });

export function locationView(l: Location) {
  return { id: l.id, name: l.name, code: l.code, country: l.country };
}

export const WebHostingPackageSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  disk_quota_mb: Type.Integer(),
  max_domains: Type.Integer(),
  price: Type.Object({ monthly: Money, yearly: Money }),
}, { title: 'WebHostingPackage' });

export function webHostingPackageView(p: HostingPackage) {
  return {
    id: p.id, name: p.name, disk_quota_mb: p.disk_quota_mb, max_domains: p.max_domains,
    price: { monthly: money(p.monthly_price_cents), yearly: money(p.yearly_price_cents) },
  };
}

export const DepartmentSchema = Type.Object({ id: Type.Integer(), name: Type.String() }, { title: 'Department' });

export function departmentView(d: Department) {
  return { id: d.id, name: d.name };
}
