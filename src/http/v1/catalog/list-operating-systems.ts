import { Type } from '@sinclair/typebox';
import { listOperatingSystemFamilies } from '../../../core/catalog/customer-lists.ts';
import { offsetOf } from '../../../core/pagination.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1OperatingSystem } from './schemas.ts';
import { v1OperatingSystem } from './views.ts';

export function register(app: TypedApp, { db, services }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/operating-systems', area: 'catalog', operationId: 'listOperatingSystems', tag: 'Catalog',
    summary: 'List operating systems',
    description: 'The installable operating systems, each with its `versions[]` (a version this platform has no image for is left out); a version\'s `id` is what POST /servers (`version_id`), '
      + 'reinstall and POST /vms (`os_id`) take. Paged by family (100 a page unless asked otherwise).',
    querystring: Type.Object({ ...V1PageQuery('per_page', 100) }, { additionalProperties: false }),
    response: V1List(V1OperatingSystem),
    handler: async (request) => {
      // A handful of families: grouped from every installable version, then paged.
      const families = await listOperatingSystemFamilies(db, services.compute.capabilities?.osImages === true);
      const page = { page: request.query.page, perPage: request.query.per_page };
      const items = families.slice(offsetOf(page), offsetOf(page) + page.perPage);
      return v1page({ items, total: families.length, ...page }, v1OperatingSystem);
    },
  });
}
