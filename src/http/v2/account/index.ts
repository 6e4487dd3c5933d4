// The account routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getAccount from './get-account.ts';
import * as listApiKeys from './list-api-keys.ts';
import * as listIpAllowlist from './list-ip-allowlist.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getAccount, listApiKeys, listIpAllowlist,
];
