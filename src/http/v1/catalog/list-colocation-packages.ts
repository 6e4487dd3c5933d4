import { Type } from '@sinclair/typebox';
import { listColocationPackages } from '../../../core/catalog/customer-lists.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1ColocationPackage } from './schemas.ts';
import { v1ColocationPackage } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/colocation-packages', area: 'catalog', operationId: 'listColocationPackages', tag: 'Catalog',
    summary: 'List colocation packages',
    description: 'The colocation packages.',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1ColocationPackage),
    handler: async (request) => v1page(await listColocationPackages(db, { page: request.query.page, perPage: request.query.per_page }), v1ColocationPackage),
  });
}
