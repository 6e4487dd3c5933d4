// The upstream systems Hostcloud drives, and each one's calls by name: the registry the fault
// switch validates `calls` against. A new provider is one entry here (and its call list).
import { COMPUTE_CALLS } from './compute/types.ts';
import { HOSTING_CALLS } from './hosting/types.ts';
import { PAYMENT_CALLS } from './payments/types.ts';
import { REGISTRAR_CALLS } from './registrar/types.ts';

export const PROVIDERS = ['compute', 'registrar', 'hosting', 'payments'] as const;

export type ProviderName = (typeof PROVIDERS)[number];

export const PROVIDER_CALLS = {
  compute: COMPUTE_CALLS,
  registrar: REGISTRAR_CALLS,
  hosting: HOSTING_CALLS,
  payments: PAYMENT_CALLS,
} as const satisfies Record<ProviderName, readonly string[]>;

/** A call name of provider P: `ProviderCall<'registrar'>` is 'check' | 'register' | … */
export type ProviderCall<P extends ProviderName> = (typeof PROVIDER_CALLS)[P][number];

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}
