import { Type } from '@sinclair/typebox';
import { setWhoisPrivacy } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainParams, DomainSchema, domainView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.put('/domains/:id/whois-privacy', {
    config: { area: 'domains' },
    schema: {
      operationId: 'updateDomainWhoisPrivacy',
      tags: ['Domains'],
      summary: 'Set WHOIS privacy',
      description: 'Free. Hides (`enabled: true`) or shows the registrant in WHOIS. Turning it on for a TLD without WHOIS privacy '
        + '(`supports_whois_privacy: false` in GET /domains/pricing) is 422 naming `whois_privacy`. The domain must be `active` (else 409).',
      params: DomainParams,
      body: Type.Object({ enabled: Type.Boolean({ description: 'true hides the registrant.' }) }, { additionalProperties: false }),
      response: { 200: Envelope(DomainSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => ok(request, domainView(await withCtx(deps, request, (ctx) => setWhoisPrivacy(ctx, request.params.id, request.body.enabled)))));
}
