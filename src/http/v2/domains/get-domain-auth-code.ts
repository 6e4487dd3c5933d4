import { getAuthCode } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainAuthCodeSchema, DomainParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/domains/:id/auth-code', {
    // The code is what lets the domain leave the account: reading it is a write-level right.
    config: { area: 'domains', access: 'write' },
    schema: {
      operationId: 'getDomainAuthCode',
      tags: ['Domains'],
      summary: 'Get the EPP auth code',
      description: 'The code another registrar asks for to transfer the domain away: the one on record, or read from the registrar '
        + '(and kept). Reading never changes it; `refreshDomainAuthCode` issues a new one. Needs the scope `domains:write`, '
        + 'not `domains:read`: the code lets the domain leave the account. The domain must be `active` (else 409).',
      params: DomainParams,
      response: { 200: Envelope(DomainAuthCodeSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const { authCode } = await withCtx(deps, request, (ctx) => getAuthCode(ctx, request.params.id));
    return ok(request, { auth_code: authCode });
  });
}
