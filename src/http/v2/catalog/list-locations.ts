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
      operationId: 'listLocations',
      tags: ['Catalog'],
      summary: 'List locations',
      description: 'The locations servers can be created in; `id` is the `location_id` of POST /servers.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(LocationSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listServerLocations(db, pageOf(request.query)), locationView));
}
