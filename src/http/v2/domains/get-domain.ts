import { getDomain } from '../../../core/domains/read.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainParams, DomainSchema, domainView } from './presenters.ts';
import { nextChargeOf } from '../../../core/billing/upcoming.ts';
import { domainCharges } from '../../../core/domains/upcoming.ts';
import { nextChargeView } from '../billing/presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/domains/:id', {
    config: { area: 'domains' },
    schema: {
      operationId: 'getDomain',
      tags: ['Domains'],
      summary: 'Get a domain',
      description: "A domain with its dates, nameservers, lock and privacy settings, and its TLD's current prices. Another account's id is 404.",
      params: DomainParams,
      response: { 200: Envelope(DomainSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const [row, next] = await withCtx(deps, request, async (ctx) => {
      const r = await getDomain(ctx, request.params.id);
      return [r, await nextChargeOf(ctx, 'domain', domainCharges, request.params.id, deps.config.domainRenewDays)] as const;
    });
    return ok(request, { ...domainView(row), ...nextChargeView(next) });
  });
}
