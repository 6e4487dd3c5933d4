import { Type } from '@sinclair/typebox';
import { listDedicatedPackages } from '../../../core/catalog/customer-lists.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1DedicatedPackage } from './schemas.ts';
import { v1DedicatedPackage } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/dedicated-server-packages', area: 'catalog', operationId: 'listDedicatedServerPackages', tag: 'Catalog',
    summary: 'List dedicated server packages',
    description: 'The dedicated server packages.',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1DedicatedPackage),
    handler: async (request) => v1page(await listDedicatedPackages(db, { page: request.query.page, perPage: request.query.per_page }), v1DedicatedPackage),
  });
}
