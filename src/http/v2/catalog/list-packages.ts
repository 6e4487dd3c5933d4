import { Type } from '@sinclair/typebox';
import { listPlans } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { PackageSchema, packageView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/packages', {
    config: { area: 'catalog' },
    schema: {
      operationId: 'listPackages',
      tags: ['Catalog'],
      summary: 'List packages',
      description: 'The plan catalog without `bandwidth_gb`; `id` is the `package_id` of the upgrade action.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(PackageSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listPlans(db, pageOf(request.query)), packageView));
}
