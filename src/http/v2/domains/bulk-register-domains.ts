import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { registerBulkRoute, registerUnknownBulkAction } from './bulk-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  registerBulkRoute(app, deps, {
    action: 'register',
    operationId: 'bulkRegisterDomains',
    summary: 'Register many domains',
    description: '**Billable**, item by item, as registerDomain: each name\'s register price × its years. The registrar is asked about every name at once.',
    examples: {
      names: { summary: 'three names, one for two years', value: { domains: ['example-shop.com', 'example-shop.net', { domain: 'example-shop.io', years: 2 }], years: 1 } },
    },
  });
  registerUnknownBulkAction(app);
}
