import { Type } from '@sinclair/typebox';
import { listIpSubnetPackages } from '../../../core/catalog/customer-lists.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1IpSubnetPackage } from './schemas.ts';
import { v1IpSubnetPackage } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/ip-subnet-packages', area: 'catalog', operationId: 'listIpSubnetPackages', tag: 'Catalog',
    summary: 'List IP subnet packages',
    description: 'The IP subnet packages (`subnet_size` is the prefix length).',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1IpSubnetPackage),
    handler: async (request) => v1page(await listIpSubnetPackages(db, { page: request.query.page, perPage: request.query.per_page }), v1IpSubnetPackage),
  });
}
