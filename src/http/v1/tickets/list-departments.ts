import { Type } from '@sinclair/typebox';
import { listActiveDepartments } from '../../../core/catalog/customer-lists.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1page } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1List, V1PageQuery } from '../schemas.ts';
import { V1Department } from './schemas.ts';
import { v1Department } from './views.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  v1Route(app, {
    method: 'GET', url: '/departments', area: 'tickets', operationId: 'listDepartments', tag: 'Support',
    summary: 'List departments',
    description: 'The active support departments; `id` is the `department_id` of POST /tickets.',
    querystring: Type.Object({ ...V1PageQuery('per_page') }, { additionalProperties: false }),
    response: V1List(V1Department),
    handler: async (request) => v1page(await listActiveDepartments(db, { page: request.query.page, perPage: request.query.per_page }), v1Department),
  });
}
