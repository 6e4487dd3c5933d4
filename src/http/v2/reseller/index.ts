// The reseller routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getReseller from './get-reseller.ts';
import * as getResellerTiers from './get-reseller-tiers.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getReseller, getResellerTiers,
];
