import { Type } from '@sinclair/typebox';
import { listDomains } from '../../../core/domains/read.ts';
import { DOMAIN_STATUSES } from '../../../core/domains/rules.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { DomainSchema, domainView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/domains', {
    config: { area: 'domains' },
    schema: {
      operationId: 'listDomains',
      tags: ['Domains'],
      summary: 'List domains',
      description: "The account's domains, newest first, cancelled ones (failed registrations and transfers) included.",
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(DOMAIN_STATUSES, { description: 'Only domains in this status.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(DomainSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listDomains(ctx, { status: request.query.status }, pageOf(request.query)));
    return page(request, result, domainView);
  });
}
