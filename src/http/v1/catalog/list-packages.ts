import { Type } from '@sinclair/typebox';
import { listAvailablePlans } from '../../../core/catalog/customer-lists.ts';
import { resellerStanding } from '../../../core/reseller/service.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1Package } from './schemas.ts';
import { v1Package } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/packages', area: 'catalog', operationId: 'listPackages', tag: 'Catalog',
    summary: 'List packages',
    description: 'The server packages that can be ordered; `id` is the `package_id` of POST /servers. A reseller also sees what it pays at '
      + 'its current tier (`reseller_monthly_price`, the discount rounded down to the cent as on every server charge); others see null there. '
      + '`limit` is at most 100.',
    querystring: Type.Object({ ...V1PageQuery('limit') }, { additionalProperties: false }),
    response: V1List(V1Package),
    handler: async (request) => {
      const accountId = callerOf(request).accountId;
      const [plans, standing] = await Promise.all([
        listAvailablePlans(db, { page: request.query.page, perPage: request.query.limit }),
        resellerStanding(db, accountId),
      ]);
      return v1page(plans, (p) => v1Package(p, standing));
    },
  });
}
