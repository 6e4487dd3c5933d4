// The admin API (/admin/v1): the operator's panel and `hostcloud admin` drive it with ADMIN_TOKEN.
// v2 envelope and errors; not rate limited; not part of the customer OpenAPI document.
import type { FastifyInstance } from 'fastify';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import * as accountLists from './account-lists.ts';
import * as accounts from './accounts.ts';
import * as apiKeys from './api-keys.ts';
import * as catalog from './catalog.ts';
import * as provider from './provider.ts';

export async function registerAdminRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  for (const r of [accounts, accountLists, apiKeys, catalog, provider]) r.register(app as TypedApp, deps);
}
