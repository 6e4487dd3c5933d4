import { Type } from '@sinclair/typebox';
import { listActiveDepartments } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { DepartmentSchema, departmentView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/departments', {
    config: { area: 'tickets' },
    schema: {
      tags: ['Support tickets'],
      summary: 'Active support departments',
      querystring: Type.Object(PageQuery()),
      response: { 200: ListEnvelope(DepartmentSchema), ...errorResponses },
    },
  }, async (request) => page(request, await listActiveDepartments(db, pageOf(request.query)), departmentView));
}
