import { getHostingSite } from '../../../core/hosting/site.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebHostingParams } from './presenters.ts';
import { HostingSiteSchema, hostingSiteView } from './site-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/web-hosting/:id/site', {
    config: { area: 'hosting', hostingPage: true },
    schema: {
      operationId: 'getWebHostingSite',
      tags: ['Web hosting'],
      summary: 'Get a web hosting account\'s site',
      description: 'What the account\'s hosting page shows, live from its hosting server: domain, site URL, document root, PHP version, '
        + 'SFTP host, port and user, disk used and quota, and the MariaDB databases with the package\'s limit. Never a password. '
        + 'An account that is pending or cancelled is 409 `STATE_CONFLICT`; a suspended one is shown. '
        + 'Also answers the hosting page opened by `login_url` (its cookie stands in for a key, for this account only).',
      params: WebHostingParams,
      response: { 200: Envelope(HostingSiteSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => ok(request, hostingSiteView(await withCtx(deps, request, (ctx) => getHostingSite(ctx, request.params.id)))));
}
