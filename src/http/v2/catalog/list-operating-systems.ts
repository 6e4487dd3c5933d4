import { Type } from '@sinclair/typebox';
import { listOperatingSystemsOnSale } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { OperatingSystemSchema, operatingSystemView } from '../presenters.ts';

export function register(app: TypedApp, { db, services }: RouteDeps) {
  app.get('/operating-systems', {
    config: { area: 'catalog' },
    schema: {
      operationId: 'listOperatingSystems',
      tags: ['Catalog'],
      summary: 'List operating systems',
      description: 'The OS versions on sale, a flat list; `id` is the `os_version_id` of POST /servers and of the reinstall action. One marked `available: false` cannot be installed on this platform yet (it has no image).',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(OperatingSystemSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listOperatingSystemsOnSale(db, pageOf(request.query), services.compute.capabilities?.osImages === true), operatingSystemView));
}
