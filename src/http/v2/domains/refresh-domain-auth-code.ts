import { refreshAuthCode } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainAuthCodeSchema, DomainParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/domains/:id/auth-code', {
    config: { area: 'domains' },
    schema: {
      operationId: 'refreshDomainAuthCode',
      tags: ['Domains'],
      summary: 'Issue a new EPP auth code',
      description: '**Addition to the Hosting Cloud API v2.** Has the registrar issue a new transfer code for the domain and answers it; the old code '
        + 'stops working at once, and `getDomainAuthCode` answers the new one from then on. Free; no body. Needs `domains:write`. '
        + 'The domain must be `active` (else 409); the registrar failing is 502 and the old code stays.',
      params: DomainParams,
      response: { 200: Envelope(DomainAuthCodeSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const { authCode } = await withCtx(deps, request, (ctx) => refreshAuthCode(ctx, request.params.id));
    return ok(request, { auth_code: authCode });
  });
}
