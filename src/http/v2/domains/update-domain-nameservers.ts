import { Type } from '@sinclair/typebox';
import { setNameservers } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { Nameservers } from './bodies.ts';
import { DomainNameserversSchema, DomainParams, nameserversView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.put('/domains/:id/nameservers', {
    config: { area: 'domains' },
    schema: {
      operationId: 'updateDomainNameservers',
      tags: ['Domains'],
      summary: 'Set the nameservers',
      description: 'Free. Replaces the whole set with 2 to 13 distinct host names (normalised: lower case, IDN in punycode). The registrar is '
        + 'changed first; if it fails, nothing changes (502). The domain must be `active` (else 409).',
      params: DomainParams,
      body: Type.Object({ nameservers: Nameservers }, { additionalProperties: false }),
      response: { 200: Envelope(DomainNameserversSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => ok(request, nameserversView(await withCtx(deps, request, (ctx) => setNameservers(ctx, request.params.id, request.body.nameservers)))));
}
