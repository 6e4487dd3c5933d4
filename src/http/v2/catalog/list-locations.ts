import { Type } from '@sinclair/typebox';
import { PRIMARY_PROVIDER, listCatalog } from '../../../core/catalog/service.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { LocationSchema, locationView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/locations', {
    config: { area: 'catalog' },
    schema: {
      tags: ['Catalog'],
      summary: 'Locations usable for server creation',
      querystring: Type.Object(PageQuery()),
      response: { 200: ListEnvelope(LocationSchema), ...errorResponses },
    },
  }, async (request) => {
    const filter = { onlyAvailable: true, provider: PRIMARY_PROVIDER };
    return page(request, await listCatalog(db, 'locations', filter, pageOf(request.query)), locationView);
  });
}
