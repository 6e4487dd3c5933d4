// Rows → v2 resources. Only what a customer may see leaves: no hashes, no internal flags.
import { Type } from '@sinclair/typebox';
import { ipVersion } from '../../core/api-keys/ip-allowlist.ts';
import { money } from '../../core/money.ts';
import { timestamp, ts } from '../../core/time.ts';
import type { Account, ApiKey, Department, HostingPackage, Location, OperatingSystem, Plan, Transaction } from '../../db/schema.ts';
import { MoneySchema, NullableTimestamp, StringEnum, Timestamp, component, ref } from '../schemas.ts';

const Money = ref(MoneySchema);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AccountSchema = component('Account', Type.Object({
  id: Type.String({ examples: ['acc_3kT9wQ2mZx7Lp4Rb'] }),
  email: Type.String({ examples: ['ada@example.com'] }),
  name: Type.String({ examples: ['Ada Lovelace'] }),
  company: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2', examples: ['GB'] })),
  status: StringEnum(['active', 'suspended', 'closed'] as const),
  balance: Money,
  created_at: Timestamp,
}, { description: 'The authenticated customer. Secrets (keys, hashes, tokens) are never returned.' }));

export function accountView(a: Account) {
  return {
    id: a.id, email: a.email, name: a.name, company: a.company, phone: a.phone, country: a.country,
    status: a.status, balance: money(a.balance_cents), created_at: ts(a.created_at),
  };
}

export const TransactionSchema = component('Transaction', Type.Object({
  id: Type.Integer({ examples: [1042] }),
  type: StringEnum(['deposit', 'withdraw', 'refund'] as const),
  amount: Money,
  description: Type.String({ examples: ['Server web-1.example.com (srv_8fJ2kLmN4pQ7rS1t): first monthly cycle, 5.00 USD'] }),
  status: Type.String({ examples: ['completed'] }),
  created_at: Timestamp,
}, { description: 'A ledger entry: money in (deposit, refund) or out (withdraw) of the balance.' }));

export function transactionView(t: Transaction) {
  return { id: t.id, type: t.type, amount: money(t.amount_cents), description: t.description, status: t.status, created_at: ts(t.created_at) };
}

export const ApiKeySchema = component('ApiKey', Type.Object({
  id: Type.String({ examples: ['key_5Fq8nWc2Lz6Tr1Ya'] }),
  name: Type.String({ examples: ['deploy'] }),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it; never the key.', examples: ['hc_live_Xy12'] }),
  is_test: Type.Boolean({ description: 'A test key works against the sandbox.' }),
  scopes: Type.Union([Type.Array(Type.String({ examples: ['servers:write'] })), Type.Null()], { description: '`<area>:read` or `<area>:write`; null = every scope.' }),
  ip_allowlist: Type.Array(Type.String({ examples: ['203.0.113.0/24'] })),
  status: StringEnum(['active', 'revoked'] as const),
  sub_user_id: Type.Union([Type.Integer({ examples: [7] }), Type.Null()], {
    description: 'The sub-user the key acts for: it may do only what both its scopes and the sub-user\'s permissions allow, and nothing while the sub-user is not active. null: the account\'s own key.',
  }),
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
  created_at: Timestamp,
}, { description: 'Metadata of an API key; the key itself is never returned.' }));

export function apiKeyView(k: ApiKey) {
  return {
    id: k.id, name: k.name, prefix: k.prefix, is_test: k.is_test, scopes: k.scopes, ip_allowlist: k.ip_allowlist,
    status: k.revoked_at ? 'revoked' as const : 'active' as const, sub_user_id: k.sub_user_id, last_used_at: timestamp(k.last_used_at), revoked_at: timestamp(k.revoked_at),
    created_at: ts(k.created_at),
  };
}

export const IpAllowlistEntrySchema = component('IpAllowlistEntry', Type.Object({
  cidr: Type.String({ description: 'An address or a network.', examples: ['203.0.113.0/24'] }),
  version: Type.Integer({ enum: [4, 6], examples: [4] }),
}));

export function allowlistEntryView(entry: string) {
  return { cidr: entry, version: ipVersion(entry) };
}

const specFields = {
  cpu_cores: Type.Integer({ examples: [2] }),
  ram_mb: Type.Integer({ examples: [4096] }),
  storage_gb: Type.Integer({ examples: [80] }),
};

export const PlanSchema = component('Plan', Type.Object({
  id: Type.Integer({ description: 'The `plan_id` of POST /servers.', examples: [2] }),
  name: Type.String({ examples: ['Cloud M'] }),
  specs: Type.Object({ ...specFields, bandwidth_gb: Type.Integer({ description: 'Monthly transfer allowance, decimal GB.', examples: [2000] }) }),
  price: Money,
  available: Type.Boolean({ description: 'false: listed for existing servers, but no longer sold.' }),
}, { description: 'A server package: fixed size, monthly price.' }));

export function planView(p: Plan) {
  return {
    id: p.id, name: p.name,
    specs: { cpu_cores: p.cpu_cores, ram_mb: p.ram_mb, storage_gb: p.storage_gb, bandwidth_gb: p.bandwidth_gb },
    price: money(p.price_cents), available: p.available,
  };
}

export const PackageSchema = component('Package', Type.Object({
  id: Type.Integer({ description: 'The `package_id` of the upgrade action.', examples: [3] }),
  name: Type.String({ examples: ['Cloud L'] }),
  specs: Type.Object(specFields),
  price: Money,
  available: Type.Boolean(),
}, { description: 'The plan catalog as packages (no bandwidth), for upgrades.' }));

export function packageView(p: Plan) {
  return {
    id: p.id, name: p.name,
    specs: { cpu_cores: p.cpu_cores, ram_mb: p.ram_mb, storage_gb: p.storage_gb },
    price: money(p.price_cents), available: p.available,
  };
}

export const OperatingSystemSchema = component('OperatingSystem', Type.Object({
  id: Type.Integer({ description: 'The `os_version_id` to pass to POST /servers.', examples: [1] }),
  name: Type.String({ examples: ['Ubuntu 24.04'] }),
  family: Type.String({ examples: ['Ubuntu'] }),
  version: Type.String({ examples: ['24.04'] }),
  slug: Type.String({ description: 'What a server reports as its `os`.', examples: ['ubuntu-24.04'] }),
  available: Type.Boolean({
    description: 'false: on sale but not installable yet on this platform (the operator has not given it an image); POST /servers with it is 422 `OS_VERSION_INVALID`.',
    examples: [true],
  }),
}, { description: 'An operating system version on sale.' }));

export function operatingSystemView(o: OperatingSystem & { installable: boolean }) {
  return { id: o.id, name: `${o.family} ${o.version}`, family: o.family, version: o.version, slug: o.slug, available: o.installable };
}

export const LocationSchema = component('Location', Type.Object({
  id: Type.Integer({ description: 'The `location_id` of POST /servers.', examples: [1] }),
  name: Type.String({ examples: ['Frankfurt'] }),
  code: Type.String({ examples: ['fra1'] }),
  country: Type.String({ description: 'ISO 3166-1 alpha-2', examples: ['DE'] }),
}, { description: 'A data center servers can be created in.' }));

export function locationView(l: Location) {
  return { id: l.id, name: l.name, code: l.code, country: l.country };
}

export const WebHostingPackageSchema = component('WebHostingPackage', Type.Object({
  id: Type.Integer({ examples: [1] }),
  name: Type.String({ examples: ['Starter'] }),
  disk_quota_mb: Type.Integer({ examples: [10240] }),
  max_domains: Type.Integer({ examples: [1] }),
  price: Type.Object({ monthly: Money, yearly: Money }),
}, { description: 'A web hosting package.' }));

export function webHostingPackageView(p: HostingPackage) {
  return {
    id: p.id, name: p.name, disk_quota_mb: p.disk_quota_mb, max_domains: p.max_domains,
    price: { monthly: money(p.monthly_price_cents), yearly: money(p.yearly_price_cents) },
  };
}

export const DepartmentSchema = component('Department', Type.Object({
  id: Type.Integer({ examples: [1] }),
  name: Type.String({ examples: ['Technical support'] }),
}, { description: 'A support department tickets can be addressed to.' }));

export const BalanceSchema = component('Balance', Type.Object({
  balance: Money,
  currency: Type.String({ examples: ['USD'] }),
}, { description: 'The prepaid balance billable operations draw on.' }));

export function departmentView(d: Department) {
  return { id: d.id, name: d.name };
}
