// v1 schemas of the catalog: packages (with reseller prices), OS families, locations, the v1-only package families.
import { Type } from '@sinclair/typebox';
import { Nullable, V1Money } from '../schemas.ts';

const Id = Type.Integer({ examples: [2] });
const Name = (example: string) => Type.String({ examples: [example] });
const Count = (example: number) => Type.Integer({ minimum: 0, examples: [example] });

export const V1Package = Type.Object({
  id: Id,
  name: Name('Cloud M'),
  cpu_cores: Count(2),
  ram_mb: Count(4096),
  storage_gb: Count(80),
  bandwidth_gb: Count(2000),
  monthly_price: V1Money('USD a month.'),
  reseller_monthly_price: Nullable(V1Money('What a reseller pays a month at its current tier; null unless the account is a reseller.')),
  reseller_discount_percentage: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'The current tier\'s discount; null unless the account is a reseller.', examples: [10] })),
});

export const V1OperatingSystem = Type.Object({
  id: Type.Integer({ description: 'The OS family: the id of its first listed version.', examples: [1] }),
  name: Name('Ubuntu'),
  versions: Type.Array(Type.Object({ id: Type.Integer({ description: 'The `version_id` of POST /servers and reinstall, the `os_id` of POST /vms.', examples: [1] }), name: Name('24.04') })),
});

export const V1Location = Type.Object({
  id: Type.Integer({ examples: [1] }),
  name: Name('Frankfurt'),
  code: Name('fra1'),
  status: Type.String({ enum: ['active', 'inactive'], description: 'Only active locations are listed.' }),
});

const price = V1Money('USD a month.');
export const V1EmailPackage = Type.Object({ id: Id, name: Name('Mail Basic'), disk_quota_mb: Count(5120), max_accounts: Count(5), monthly_price: price });
export const V1WebHostingPackage = Type.Object({ id: Id, name: Name('Web Starter'), disk_quota_mb: Count(10240), max_domains: Count(1), monthly_price: price });
export const V1ColocationPackage = Type.Object({ id: Id, name: Name('1U Colocation'), type: Name('1U'), monthly_price: price });
export const V1DedicatedPackage = Type.Object({ id: Id, name: Name('Dedicated E3'), cpu_cores: Count(4), ram_gb: Count(32), storage_gb: Count(1000), monthly_price: price });
export const V1IpSubnetPackage = Type.Object({ id: Id, name: Name('IPv4 /29'), subnet_size: Count(29), monthly_price: price });
