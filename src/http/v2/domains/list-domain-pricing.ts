import { Type } from '@sinclair/typebox';
import { getTldPrice, listTldPrices } from '../../../core/catalog/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok, page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { TldPriceSchema, tldPriceView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/domains/pricing', {
    config: { area: 'domains' },
    schema: {
      operationId: 'listDomainPricing',
      tags: ['Domains'],
      summary: 'TLD prices',
      description: 'Without `tld`: the price list, paged (50 a page by default, at most 200), in TLD order. With `tld` (`com` or `.com`, any case): '
        + 'that TLD alone, as an object — 404 `RESOURCE_NOT_FOUND` when it is not sold. Prices are per year; a transfer includes one year.',
      querystring: Type.Object({
        tld: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'One TLD, with or without its dot.', examples: ['com'] })),
        ...PageQuery(200, 50),
      }, { additionalProperties: false }),
      response: {
        200: Type.Union([ListEnvelope(TldPriceSchema), Envelope(TldPriceSchema)], { description: 'A page of TLD prices, or one TLD when `tld` is given.' }),
        ...errorResponses('RESOURCE_NOT_FOUND'),
      },
    },
  }, async (request) => {
    const { tld } = request.query;
    if (tld !== undefined) return ok(request, tldPriceView(await withCtx(deps, request, (ctx) => getTldPrice(ctx.db, tld))));
    return page(request, await withCtx(deps, request, (ctx) => listTldPrices(ctx.db, pageOf(request.query))), tldPriceView);
  });
}
