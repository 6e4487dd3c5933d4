import { Type } from '@sinclair/typebox';
import { listEmailPackages } from '../../../core/catalog/customer-lists.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1EmailPackage } from './schemas.ts';
import { v1EmailPackage } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/email-packages', area: 'catalog', operationId: 'listEmailPackages', tag: 'Catalog',
    summary: 'List email packages',
    description: 'The email hosting packages.',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1EmailPackage),
    handler: async (request) => v1page(await listEmailPackages(db, { page: request.query.page, perPage: request.query.per_page }), v1EmailPackage),
  });
}
