import { Type } from '@sinclair/typebox';
import { getAuthCode } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainAuthCodeSchema, DomainParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/domains/:id/auth-code', {
    config: { area: 'domains' },
    schema: {
      operationId: 'getDomainAuthCode',
      tags: ['Domains'],
      summary: 'Get the EPP auth code',
      description: 'The code another registrar asks for to transfer the domain away: the one on record, or freshly requested from the registrar. '
        + '`refresh=true` has the registrar issue a new one (the old one stops working). The domain must be `active` (else 409).',
      params: DomainParams,
      querystring: Type.Object({ refresh: Type.Boolean({ default: false, description: 'Issue a new code.' }) }, { additionalProperties: false }),
      response: { 200: Envelope(DomainAuthCodeSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const { authCode } = await withCtx(deps, request, (ctx) => getAuthCode(ctx, request.params.id, request.query.refresh));
    return ok(request, { auth_code: authCode });
  });
}
