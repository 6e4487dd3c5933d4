import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { registerBulkRoute } from './bulk-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  registerBulkRoute(app, deps, {
    action: 'transfer',
    operationId: 'bulkTransferDomains',
    summary: 'Transfer many domains in',
    description: '**Billable**, item by item, as transferDomain: each item needs its `auth_code`; a wrong code or a name not registered elsewhere fails that item, uncharged.',
    examples: {
      items: { summary: 'two names with their auth codes', value: { domains: [{ domain: 'transfer-demo.com', auth_code: 'Demo-Auth-2026' }, { domain: 'my-old-shop.net', auth_code: 'x7Lm2Vq9Kp0a', years: 2 }] } },
    },
  });
}
