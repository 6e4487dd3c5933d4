import { Type } from '@sinclair/typebox';
import { listServerLocations } from '../../../core/catalog/customer-lists.ts';
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
  }, async (request) => page(request, await listServerLocations(db, pageOf(request.query)), locationView));
}
