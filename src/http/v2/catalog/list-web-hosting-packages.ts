import { Type } from '@sinclair/typebox';
import { listActiveHostingPackages } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { WebHostingPackageSchema, webHostingPackageView } from '../presenters.ts';

// An addition to the Hosting Cloud API v2, which has no other way to discover a package_id for POST /web-hosting.
export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/web-hosting-packages', {
    config: { area: 'catalog' },
    schema: {
      operationId: 'listWebHostingPackages',
      tags: ['Catalog'],
      summary: 'List web hosting packages',
      description: 'The active web hosting packages; `id` is the `package_id` of POST /web-hosting. An addition to the Hosting Cloud API v2: without it a client could not discover a package.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(WebHostingPackageSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listActiveHostingPackages(db, pageOf(request.query)), webHostingPackageView));
}
