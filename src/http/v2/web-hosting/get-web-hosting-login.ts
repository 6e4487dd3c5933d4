import { hostingLoginLink } from '../../../core/hosting/login.ts';
import { linkAccess } from '../../../core/hosting/page-sessions.ts';
import { linkSigningKey } from '../../../core/signed-links.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { HostingLoginSchema, WebHostingParams, hostingLoginView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/web-hosting/:id/login', {
    config: { area: 'hosting' },
    schema: {
      operationId: 'getWebHostingLogin',
      tags: ['Web hosting'],
      summary: 'Get a control-panel login link',
      description: 'A link that opens the account\'s hosting page in the customer panel without a password: our own signed URL '
        + '(`openWebHostingLoginLink`), single use, valid 300 seconds, opened in a browser without an API key. The page shows the site, '
        + 'SFTP and databases and can reset passwords and create and drop databases — or only show them, when the link is made by a '
        + 'caller with `hosting:read` only. An account that is not active is 409 `STATE_CONFLICT`.',
      params: WebHostingParams,
      response: { 200: Envelope(HostingLoginSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    // From the pool, before any sandbox transaction: a key created in one would be rolled back.
    const key = await linkSigningKey(deps.db);
    const caller = callerOf(request);
    const maker = { access: linkAccess(caller.scopes), subUserId: caller.subUserId };
    const login = await withCtx(deps, request, (ctx) => hostingLoginLink(ctx, request.params.id, key, deps.config.publicUrl, maker));
    return ok(request, hostingLoginView(login));
  });
}
