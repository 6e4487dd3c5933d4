import { Type } from '@sinclair/typebox';
import { listActiveHostingPackages } from '../../../core/catalog/customer-lists.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1WebHostingPackage } from './schemas.ts';
import { v1WebHostingPackage } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/web-hosting-packages', area: 'catalog', operationId: 'listWebHostingPackages', tag: 'Catalog',
    summary: 'List web hosting packages',
    description: 'The active web hosting packages (the `package_id` of a v2 web hosting order).',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1WebHostingPackage),
    handler: async (request) => v1page(await listActiveHostingPackages(db, { page: request.query.page, perPage: request.query.per_page }), v1WebHostingPackage),
  });
}
