import { getNameservers } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainNameserversSchema, DomainParams, nameserversView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/domains/:id/nameservers', {
    config: { area: 'domains' },
    schema: {
      operationId: 'getDomainNameservers',
      tags: ['Domains'],
      summary: 'Get the nameservers',
      description: 'The nameservers registered for the domain.',
      params: DomainParams,
      response: { 200: Envelope(DomainNameserversSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, nameserversView(await withCtx(deps, request, (ctx) => getNameservers(ctx, request.params.id)))));
}
