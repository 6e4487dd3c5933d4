// Panel-only writes: authenticated and scope-checked like any route, then 501.
import type { HTTPMethods } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { Area } from '../../core/types.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { errorResponses } from '../schemas.ts';

const ALL: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

// They are left out of the OpenAPI document, where a generated client would get functions that
// can only fail; the document's introduction lists them instead (docs/introduction.ts).
// `hidden` routes catch deeper paths (an unencoded CIDR slash, /invoices/{id}/pdf) and are not
// listed there either.
/** `page`: where the customer panel (/panel) does it. */
export const PANEL_ONLY: { method: HTTPMethods | HTTPMethods[]; url: string; area: Area; what: string; page: string; hidden?: boolean }[] = [
  { method: 'POST', url: '/sub-users', area: 'sub_users', what: 'Inviting sub-users', page: '/panel/sub-users' },
  { method: 'PATCH', url: '/account', area: 'account', what: 'Editing account data', page: '/panel/profile' },
  { method: 'POST', url: '/account/api-keys', area: 'account', what: 'Creating API keys', page: '/panel/api-keys' },
  { method: 'DELETE', url: '/account/api-keys/:id', area: 'account', what: 'Deleting API keys', page: '/panel/api-keys' },
  { method: 'POST', url: '/account/ip-allowlist', area: 'account', what: 'Changing the IP allowlist', page: '/panel/api-keys' },
  // Both forms: the entry in the path (a CIDR's slash URL-encoded as %2F) or in a body.
  { method: 'DELETE', url: '/account/ip-allowlist', area: 'account', what: 'Changing the IP allowlist', page: '/panel/api-keys' },
  { method: 'DELETE', url: '/account/ip-allowlist/:entry', area: 'account', what: 'Changing the IP allowlist', page: '/panel/api-keys' },
  { method: 'DELETE', url: '/account/ip-allowlist/:entry/*', area: 'account', what: 'Changing the IP allowlist', page: '/panel/api-keys', hidden: true },
  { method: 'POST', url: '/billing/deposits', area: 'billing', what: 'Topping up the balance', page: '/panel/billing' },
  { method: ALL, url: '/billing/invoices', area: 'billing', what: 'Invoice management', page: '/panel/billing' },
  { method: ALL, url: '/billing/invoices/:id', area: 'billing', what: 'Invoice management', page: '/panel/billing' },
  { method: ALL, url: '/billing/invoices/:id/*', area: 'billing', what: 'Invoice management', page: '/panel/billing', hidden: true },
];

export function register(app: TypedApp, { config }: RouteDeps) {
  for (const r of PANEL_ONLY) {
    app.route({
      method: r.method,
      url: r.url,
      config: { area: r.area },
      schema: { hide: true, summary: `${r.what} is done in the web panel (501)`, response: { ...errorResponses('NOT_IMPLEMENTED') } },
      handler: async () => {
        throw new ApiError('NOT_IMPLEMENTED', `${r.what} is done in the web panel (${config.publicUrl}${r.page}), not through the API`);
      },
    });
  }
}
