import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { registerBulkRoute } from './bulk-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  registerBulkRoute(app, deps, {
    action: 'renew',
    operationId: 'bulkRenewDomains',
    summary: 'Renew many domains',
    description: '**Billable**, item by item, as renewDomain: each item names an active or expired domain of the account; a registrar failure refunds that item.',
    examples: {
      names: { summary: 'renew two domains, one of them for three years', value: { domains: ['example-shop.com', { domain: 'example-shop.net', years: 3 }], years: 1 } },
    },
  });
}
